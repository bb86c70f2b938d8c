// SV-COMP's __VERIFIER_nondet_* (int, char, uint, bool, long, pointer) and
// __VERIFIER_assume.
// Reasoning: a > 0 is assumed (no fork). Branches: b (bool) 2 ways; c == 'x' 2 ways;
// u < 10 2 ways; l == -1 2 ways; p == 0 2 ways; independent: 2^5 = 32 paths.
// expect-completed: 32
// expect-error-paths: 0
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern long __VERIFIER_nondet_long(void);
extern void *__VERIFIER_nondet_pointer(void);
extern void __VERIFIER_assume(int);

int main(void) {
    int a = __VERIFIER_nondet_int();
    __VERIFIER_assume(a > 0);
    _Bool b = __VERIFIER_nondet_bool();
    char c = __VERIFIER_nondet_char();
    unsigned u = __VERIFIER_nondet_uint();
    long l = __VERIFIER_nondet_long();
    void *p = __VERIFIER_nondet_pointer();
    int r = 0;
    if (b)
        r |= 1;
    if (c == 'x')
        r |= 2;
    if (u < 10)
        r |= 4;
    if (l == -1)
        r |= 8;
    if (p == 0)
        r |= 16;
    return r + (a <= 0) * 1000;
}
