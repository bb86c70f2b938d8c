// klee_make_symbolic takes a whole object, as in KLEE: a part of an object (here one field
// of a struct) or a size that is not the object's is a user error ("wrong size given to
// klee_make_symbolic"), and an empty name becomes "unnamed" with a warning.
// Reasoning: the first call names its object ""; it is renamed and the path goes on. The
// second call asks for 4 bytes at offset 4 of a 16-byte struct: the path ends with a user
// error there. No completed path.
// expect-completed: 0
// expect-error-paths: 1
// expect-replay: no
#include "klee/klee.h"

struct rec {
    char tag;
    int value;
    short small[3];
};

int main(void) {
    int x;
    struct rec part = {'p', 77, {1, 2, 3}};
    klee_make_symbolic(&x, sizeof x, "");
    klee_make_symbolic(&part.value, sizeof part.value, "part_value"); // expect-error: user
    return x + part.value;
}
