// coreutils `expr`'s argument scanner: `nextarg` compares the current argument with a
// keyword and advances the argument pointer by the comparison's result without branching
// (`args += r`), so after a few keywords `args` is `argv + [a = "+"] + [a = "-"] + ...`
// over symbolic bytes. The path simplification rewrites each later condition, pointer and
// constraint by the terms the path already fixed (a failed `strcmp` fixes `a[0] = '+'` to
// false): the access through `args` asks about the argument the path chose instead of an
// `ite` over every candidate, and many conditions need no query at all. Both configurations
// end the same 17 paths; the simplified one asks 16 queries instead of 160. The pointer
// `args` is simplified before each access is resolved (38 accesses at a constant address,
// `simplification.pointers`), so the resolution asks nothing about it (76 decided, 124
// when the resolution's conditions were simplified one by one).
// sear-configs: --no-path-simplification | --validate-solver
// expect-completed: 17
// expect-error-paths: 0
// expect-summary: simplification.decided >= 70 if validate-solver
// expect-summary: simplification.pointers >= 30 if validate-solver
// expect-summary: queries <= 40 if validate-solver
// expect-summary: queries >= 100 if no-path-simplification
// expect-summary: simplification.decided == 0 if no-path-simplification
// expect-summary: solver.sat_checks_failed == 0
#include <string.h>

#include "klee/klee.h"

static char **args;

static int nextarg(const char *keyword) {
    if (*args == 0)
        return 0;
    int r = strcmp(*args, keyword) == 0;
    args += r;
    return r;
}

int main(void) {
    char a[3], b[3];
    klee_make_symbolic(a, sizeof a, "a");
    klee_make_symbolic(b, sizeof b, "b");
    a[2] = b[2] = 0;
    char *argv[] = {a, b, 0};
    args = argv;
    int score = 0;
    if (nextarg("+"))
        score += 1;
    if (nextarg("-"))
        score += 2;
    if (nextarg("("))
        score += 4;
    if (*args && (*args)[0] == 'x')
        score += 8;
    return score;
}
