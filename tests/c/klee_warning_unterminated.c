// klee_warning (and the other klee.h functions that take a message) reads an unterminated
// buffer up to the end of its object, as KLEE does, instead of ending the path with a
// pointer error, with KLEE's warning (once) about it.
// Reasoning: the warning text is a 4-byte array with no NUL; the warning is printed ("abcd")
// and the path completes.
// expect-completed: 1
// expect-error-paths: 0
// expect-sear-stderr: main: abcd
// expect-sear-stderr: string not terminated by \0 passed to one of the klee_ functions
#include "klee/klee.h"

int main(void) {
    char text[4] = {'a', 'b', 'c', 'd'};
    klee_warning(text);
    return 0;
}
