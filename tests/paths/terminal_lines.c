// What a run prints on its standard error while it explores, for `--jobs N` to print the
// same (crates/sear-cli/tests/parallel.rs): a warning and a klee_print_expr line on every
// path, one assertion failure reached by eight paths, reported once (its kind and
// location), and a warning the run gives once (the symbolic exit status concretised), as one
// process prints them.
#include "klee/klee.h"

int main(void) {
    unsigned char x;
    klee_make_symbolic(&x, sizeof x, "x");
    int bits = 0;
    for (int i = 0; i < 4; i++) {
        if (x & (1u << i))
            bits++;
    }
    klee_warning("counted the bits");
    klee_print_expr("low bits", bits);
    if (x & 16)
        klee_assert(0);
    return x & 1;
}
