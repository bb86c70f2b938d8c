/* A table-driven scanner of the shape issue 11 measured against KLEE: SIZE symbolic bytes run
 * through a 256-byte class table, a 40 x 12 transition table and a 40-byte accept table
 * (state = trans[state][cls[byte]], nested reads; one fork per byte on accept[state]).
 * Tables: dfa_tables.h, from gen_dfa_tables.py. At SIZE 5: 31 paths. */
#include "../bench.h"
#include "dfa_tables.h"

int main(void) {
    unsigned char buf[SIZE];
    klee_make_symbolic(buf, sizeof buf, "buf");
    unsigned state = 1, tokens = 0;
    for (int i = 0; i < SIZE; i++) {
        state = trans[state][cls[buf[i]]];
        if (accept[state])
            tokens++;
    }
    return (int)tokens;
}
