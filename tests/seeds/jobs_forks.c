/* Seeded exploration under --jobs and seeded path records
 * (crates/sear-cli/tests/seeded_paths.rs): a switch per input byte, a switch its first
 * byte decided, a pointer that may leave its object, divisions that may and may not be by
 * zero. The seeds decide switches (every target listed, no query) and checks, and leave
 * deferred sides for other workers; the second switch and the first division have one
 * feasible side, which only the seeded run lists. */
#include "klee/klee.h"

static int table[8];

int main(void) {
    unsigned char s[5];
    klee_make_symbolic(s, sizeof s, "s");
    int n = 0;
    for (int i = 0; i < 5; i++) {
        switch (s[i] & 3) {
        case 0:
            n += 1;
            break;
        case 1:
            n += 2;
            break;
        case 2:
            n -= 1;
            break;
        default:
            break;
        }
    }
    /* Decided already: one target is feasible, but seeds list all four. */
    switch (s[0] & 3) {
    case 0:
        n += 10;
        break;
    case 1:
        n += 20;
        break;
    default:
        break;
    }
    if (n > 3)
        table[(s[2] >> 4) % 9] += n; /* within bounds unless s[2] >> 4 is 8 */
    if (n > 3 && n < 30)
        n += 100 / ((s[1] >> 6) + 1); /* never by zero: one side of the check */
    if (n > 29)
        n += 100 / (s[3] >> 6); /* by zero when s[3] < 64 */
    return n;
}
