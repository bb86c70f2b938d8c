// klee_assert and assert both fail on some inputs.
// expect-completed: 2
// expect-error-paths: 2
#include <assert.h>
#include "klee/klee.h"

int main(void) {
    unsigned char c;
    klee_make_symbolic(&c, sizeof c, "c");
    if (c > 200) {
        assert(c != 255); // expect-error: assert
        return 1;
    }
    klee_assert(c != 7); // expect-error: assert
    return 0;
}
