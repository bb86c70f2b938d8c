// A switch on a byte whose earlier branch left only some of its targets feasible:
// crates/sear-cli/tests/paths.rs replays each recorded path, which names its switch target
// (`target=T`) and so asks no feasibility query at the switch; without the targets (an
// older path file) the replay asks the switch's queries and follows the same path.
#include "klee/klee.h"
int main(void) {
    unsigned char c;
    klee_make_symbolic(&c, sizeof c, "c");
    if (c < 'c') return 0;
    switch (c) {
    case 'a': return 1;
    case 'b': return 2;
    case 'c': return 3;
    case 'd': return 4;
    case 'e': return 5;
    default: return 6;
    }
}
