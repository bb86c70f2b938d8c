// An undefined weak function is a null pointer (the program tests it before calling), as
// natively and in KLEE; a weak reference that something defines is not.
// Reasoning: `missing` has no definition anywhere: the test is false and nothing is called.
// `present` is defined below: it is called. One path, exit status 2.
// expect-completed: 1
// expect-exits: 2
extern int missing(void) __attribute__((weak));
extern int present(void) __attribute__((weak));

int present(void) {
    return 2;
}

int main(void) {
    int r = 0;
    if (missing)
        r += missing();
    if (present)
        r += present();
    return r;
}
