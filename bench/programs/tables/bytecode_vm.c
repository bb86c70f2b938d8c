/* A bytecode VM: a symbolic program of SIZE bytes runs on a small stack machine; opcodes go
 * through a 256-entry opcode-class table and a dispatch table of function pointers.
 * The engine forks on the symbolic dispatch target. */
#include "../bench.h"

#define STACK 8
struct vm {
    int stack[STACK];
    int sp;
    int pc;
    int halted;
    const unsigned char *code;
};

typedef int (*handler)(struct vm *);

static int op_nop(struct vm *m) { (void)m; return 0; }
static int op_push(struct vm *m) {
    if (m->sp >= STACK || m->pc >= SIZE) return -1;
    m->stack[m->sp++] = m->code[m->pc++];
    return 0;
}
static int op_add(struct vm *m) {
    if (m->sp < 2) return -1;
    m->sp--; m->stack[m->sp - 1] += m->stack[m->sp];
    return 0;
}
static int op_sub(struct vm *m) {
    if (m->sp < 2) return -1;
    m->sp--; m->stack[m->sp - 1] -= m->stack[m->sp];
    return 0;
}
static int op_dup(struct vm *m) {
    if (m->sp < 1 || m->sp >= STACK) return -1;
    m->stack[m->sp] = m->stack[m->sp - 1]; m->sp++;
    return 0;
}
static int op_jz(struct vm *m) {
    if (m->sp < 1 || m->pc >= SIZE) return -1;
    int target = m->code[m->pc++] % SIZE;
    if (m->stack[--m->sp] == 0 && target > m->pc) m->pc = target;  /* forward jumps only */
    return 0;
}
static int op_halt(struct vm *m) { m->halted = 1; return 0; }
static int op_bad(struct vm *m) { (void)m; return -1; }

static const handler dispatch[8] = {op_nop, op_push, op_add, op_sub, op_dup, op_jz, op_halt, op_bad};
/* opcode byte -> dispatch slot: only a few byte values are valid opcodes */
static const unsigned char opclass[256] = {
    [0 ... 255] = 7,
    ['n'] = 0, ['p'] = 1, ['+'] = 2, ['-'] = 3, ['d'] = 4, ['j'] = 5, ['h'] = 6,
};

int main(void) {
    unsigned char code[SIZE];
    klee_make_symbolic(code, sizeof code, "code");
    struct vm m = {.sp = 0, .pc = 0, .halted = 0, .code = code};
    while (!m.halted && m.pc < SIZE) {
        handler h = dispatch[opclass[code[m.pc++]]];
        if (h(&m) < 0)
            return -1;
    }
    if (m.sp > 0 && m.stack[m.sp - 1] == 42)
        return 42;
    return 0;
}
