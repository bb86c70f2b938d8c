// 000 T2: a flex-style DFA in the shape of bc's yylex (Figure 2): equivalence classes, then
// check/base/def/next tables read at nested symbolic offsets (next[base[s] + ec[c]]). In the
// first iteration s is constant and the conditions fold to check[ec[c]]-style reads, which
// the index-based transformation enumerates; afterwards s is symbolic and the value-based
// transformation takes over; a condition over both input characters is tabulated over the
// two bytes (index mode alone then leaves no array term for the core). All configurations
// explore the same paths.
// The index and value configurations transform at the branch (--optimize-array-at=branch), so
// that every condition meets them; by default (in the chain) the byte search answers this
// DFA's queries before they would be transformed.
// sear-configs: --optimize-array=none --no-array-folding | --optimize-array=index --optimize-array-at=branch | --optimize-array=value --optimize-array-at=branch | --optimize-array=all
// (No --validate-array-opt here: proving the nested rewrites costs as much as the baseline.)
// expect-completed: 6
// expect-error-paths: 0
// expect-summary: array_opt.index_successes >= 1 if index
// expect-summary: array_opt.index_tabulated >= 1 if index
// expect-summary: array_opt.core_queries_with_arrays == 0 if index
// expect-summary: array_opt.value_successes >= 1 if value
// expect-summary: array_opt.core_queries_with_arrays == 0 if all
#include "klee/klee.h"

#define N 2
enum { START, IDENT, NUMBER, OP, JAM, NSTATES };
enum { C_NUL, C_LETTER, C_DIGIT, C_OP, C_OTHER, NCLASSES };

static const unsigned char ec[256] = {
    [0 ... 255] = C_OTHER, [0] = C_NUL,
    ['a' ... 'z'] = C_LETTER, ['A' ... 'Z'] = C_LETTER, ['_'] = C_LETTER,
    ['0' ... '9'] = C_DIGIT,
    ['+'] = C_OP, ['-'] = C_OP, ['*'] = C_OP, ['/'] = C_OP,
};
// Comb-compressed transitions: row s starts at base[s]; an entry belongs to s if check
// says so, otherwise the default state def[s] is tried.
static const short base[NSTATES] = {0, 5, 10, 15, 15};
static const short def[NSTATES] = {JAM, JAM, JAM, JAM, JAM};
//                               NUL   LET     DIG     OP   OTHER
static const short check[20] = {START, START, START, START, START,
                                JAM,   IDENT,  IDENT,  JAM,  JAM,
                                JAM,   JAM,    NUMBER, JAM,  JAM,
                                JAM,   JAM,    JAM,    JAM,  JAM};
static const short next[20] = {JAM,   IDENT,  NUMBER, OP,   JAM,
                               0,     IDENT,  IDENT,  0,    0,
                               0,     0,      NUMBER, 0,    0,
                               JAM,   JAM,    JAM,    JAM,  JAM};
static const char accept[NSTATES] = {0, 1, 2, 3, 0};

int main(void) {
    unsigned char input[N];
    klee_make_symbolic(input, N, "input");
    int s = START, last = 0, len = 0;
    for (int i = 0; i < N; i++) {
        int cls = ec[input[i]];
        while (check[base[s] + cls] != s)
            s = def[s];
        s = next[base[s] + cls];
        if (s == JAM)
            break;
        if (accept[s]) {
            last = accept[s];
            len = i + 1;
        }
    }
    if (last == IDENT)
        klee_assert((len >= 1) & (ec[input[0]] == C_LETTER));
    if (last == NUMBER)
        klee_assert((input[0] >= '0') & (input[0] <= '9'));
    return last * 4 + len;
}
