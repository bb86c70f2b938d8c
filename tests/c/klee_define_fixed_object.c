// klee_define_fixed_object(addr, n) creates an n-byte zeroed object at exactly addr (device
// registers and other memory at fixed addresses), as KLEE does. (Natively the replay maps
// zeroed pages there.)
// Reasoning: the object at 0x60000000 reads 0 at first and holds what is written; a read
// at a symbolic offset k < 16 stays in bounds and is 7 only for k == 3: two paths, exit
// statuses 0 and 1.
// expect-completed: 2
// expect-error-paths: 0
// expect-exits: 0 1
#include "klee/klee.h"

#define REGS ((volatile unsigned char *)0x60000000)

int main(void) {
    klee_define_fixed_object((void *)REGS, 16);
    if (REGS[3] != 0)
        return 9;
    REGS[3] = 7;
    unsigned char k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 16);
    if (REGS[k] == 7)
        return 0;
    return 1;
}
