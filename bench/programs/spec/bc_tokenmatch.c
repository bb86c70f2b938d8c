/* 000 §1.2 Figure 2 / §7 T2: GNU bc's DFA matcher ("tokenMatch") over flex tables of the
 * paper's sizes (bc_tables.h, generated from ../lexers/bc.l by gen_bc_tables.py).
 *
 * Modes (choose one with -D):
 *   (default)  T2 real data flow: tokenize a symbolic buffer of SIZE bytes with the Figure 2
 *              loop (line 13: class lookup; line 18: nested check/base reads; line 23: next).
 *   LINE18     T2a-i: currState = 0 and a fresh symbolic currClass < 580; one evaluation of
 *              line 18, which folds to check[currClass] != 0 (expected 1 <= currClass <= 579).
 *              SIZE = number of rounds.
 *   LINE13     T2a-ii: currClass = equivClass[c] for a symbolic byte c, then line 18 at
 *              currState = 0: the nested read check[equivClass[c]] (expected 1 <= c <= 255).
 *              SIZE = number of rounds. */
#include "../bench.h"
#include "bc_tables.h"

static unsigned lastAcceptState;
static const unsigned char *lastAcceptPos;

/* Figure 2, with its typos fixed (char *charPtr; declared lastAccept*), bounded by the end
 * of the buffer. Returns the accepted rule (0 = none) and sets *end past the token. */
static int tokenMatch(const unsigned char *input, const unsigned char *limit,
                      const unsigned char **end) {
    const unsigned char *charPtr = input;
    unsigned currState = BC_START;
    lastAcceptState = 0;
    lastAcceptPos = input;
    do {
        unsigned currClass = equivClass[*charPtr];                    /* line 13 */
        if (accept[currState]) {
            lastAcceptState = currState;
            lastAcceptPos = charPtr;
        }
        while (check[base[currState] + currClass] != currState) {    /* line 18 */
            currState = def[currState];
            if (currState >= BC_NSTATES)
                currClass = meta[currClass];
        }
        currState = next[base[currState] + currClass];               /* line 23 */
        ++charPtr;
    } while (currState != BC_JAMSTATE && charPtr < limit);
    if (currState != BC_JAMSTATE && accept[currState]) {
        lastAcceptState = currState;
        lastAcceptPos = charPtr;
    }
    *end = lastAcceptPos == input ? input + 1 : lastAcceptPos;
    return accept[lastAcceptState];
}

int main(void) {
#if defined(LINE18) || defined(LINE13)
    int hits = 0;
    for (int r = 0; r < SIZE; r++) {
        unsigned currState = 0;
#ifdef LINE18
        unsigned currClass;
        klee_make_symbolic(&currClass, sizeof currClass, "currClass");
        klee_assume(currClass < 580);
#else
        unsigned char c;
        klee_make_symbolic(&c, 1, "c");
        unsigned currClass = equivClass[c];
#endif
        if (check[base[currState] + currClass] != currState)
            hits++;
    }
    return hits;
#else
    static unsigned char buf[SIZE];
    klee_make_symbolic(buf, sizeof buf, "input");
    const unsigned char *p = buf, *limit = buf + SIZE;
    int tokens = 0;
    while (p < limit) {
        const unsigned char *end;
        if (tokenMatch(p, limit, &end))
            tokens++;
        p = end;
    }
    return tokens;
#endif
}
