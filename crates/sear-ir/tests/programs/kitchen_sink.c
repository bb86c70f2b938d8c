/* A program exercising many C constructs, used to check that every function lowers
 * and verifies at every optimisation level. It is never executed by the tests. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdbool.h>

enum color { RED, GREEN = 5, BLUE };

struct point {
    int x, y;
};

struct shape {
    enum color color;
    struct point corners[4];
    const char *name;
    double area;
    unsigned flags : 3;
    unsigned visible : 1;
    signed delta : 12;
};

union value {
    int64_t i;
    double d;
    char bytes[8];
    struct point p;
};

struct node {
    struct node *next;
    int key;
    char payload[];
};

typedef int (*binop_fn)(int, int);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

static const binop_fn ops[] = {add, sub, mul};
static const char *const op_names[] = {"add", "sub", "mul"};

struct shape shapes[3] = {
    {RED, {{0, 0}, {1, 0}, {1, 1}, {0, 1}}, "square", 1.0, 2, 1, -7},
    {GREEN, {{0, 0}, {2, 0}, {2, 1}, {0, 1}}, "rect", 2.0, 1, 0, 100},
    {BLUE, {{0}}, NULL, 0.0, 0, 0, 0},
};

struct shape *first_shape = &shapes[0];
const char *second_name_char = &"hello"[1];
int matrix[4][5];
long double precise = 1.0L / 3.0L;
float ratios[] = {0.5f, 0.25f, 0.125f};
_Bool ready = 1;
static int counter;
volatile int sink;

int apply_op(int which, int a, int b) {
    if (which < 0 || which >= (int)(sizeof ops / sizeof ops[0]))
        return 0;
    return ops[which](a, b);
}

const char *op_name(unsigned which) { return which < 3 ? op_names[which] : "?"; }

int sum_varargs(int count, ...) {
    va_list ap;
    va_start(ap, count);
    int total = 0;
    for (int i = 0; i < count; i++) {
        int kind = va_arg(ap, int);
        if (kind == 0)
            total += va_arg(ap, int);
        else
            total += (int)va_arg(ap, double);
    }
    va_end(ap);
    return total;
}

int classify(int c) {
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
        return 1;
    case '0' ... '9':
        return 2;
    case ' ':
    case '\t':
        return 3;
    default:
        return c < 0 ? -1 : 0;
    }
}

unsigned bit_tricks(unsigned x, int s) {
    unsigned r = (x << (s & 31)) | (x >> ((32 - s) & 31));
    r ^= ~x;
    r += (unsigned)__builtin_popcount(x);
    r += (unsigned)__builtin_bswap32(x);
    if (x)
        r += (unsigned)__builtin_ctz(x) + (unsigned)__builtin_clz(x);
    return r;
}

int checked_add(int a, int b, int *out) { return __builtin_sadd_overflow(a, b, out); }

long long mixed_arith(long long a, unsigned short b, signed char c, unsigned long long d) {
    long long r = a / (b ? b : 1);
    r %= (c ? c : 3);
    r += (long long)(d >> 3);
    r -= (long long)(d % 7u);
    r *= -1;
    return r > 0 ? r : -r;
}

double float_math(double x, float y, long double z) {
    double r = x * y + (double)z;
    if (r != r)
        return 0.0;
    r = r < 0 ? -r : r;
    int truncated = (int)r;
    unsigned u = (unsigned)y;
    float back = (float)truncated + (float)u;
    return r / (back + 1.0f);
}

int matrix_trace(void) {
    int t = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            matrix[i][j] = i * j;
    for (int i = 0; i < 4; i++)
        t += matrix[i][i];
    return t;
}

int vla_sum(int n) {
    if (n <= 0 || n > 64)
        return 0;
    int buf[n];
    for (int i = 0; i < n; i++)
        buf[i] = i * i;
    int s = 0;
    int i = 0;
    do {
        s += buf[i];
        i++;
    } while (i < n);
    return s;
}

struct node *push(struct node *head, int key, const char *text) {
    size_t len = strlen(text);
    struct node *n = malloc(sizeof *n + len + 1);
    if (!n)
        return head;
    n->next = head;
    n->key = key;
    memcpy(n->payload, text, len + 1);
    return n;
}

int list_sum(const struct node *n) {
    int s = 0;
    while (n) {
        s += n->key;
        n = n->next;
    }
    return s;
}

void free_list(struct node *n) {
    while (n) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
}

int recursive_fib(int n) { return n < 2 ? n : recursive_fib(n - 1) + recursive_fib(n - 2); }

int find_first(const int *a, int n, int key) {
    int i;
    for (i = 0; i < n; i++) {
        if (a[i] == key)
            goto found;
    }
    return -1;
found:
    return i;
}

union value make_value(int which, int64_t bits) {
    union value v;
    memset(&v, 0, sizeof v);
    switch (which) {
    case 0: v.i = bits; break;
    case 1: v.d = (double)bits; break;
    case 2: v.p = (struct point){(int)bits, (int)(bits >> 32)}; break;
    default: v.bytes[0] = (char)bits; break;
    }
    return v;
}

struct shape copy_shape(const struct shape *s) {
    struct shape copy = *s;
    copy.flags = (copy.flags + 1) & 7;
    copy.delta = -copy.delta;
    copy.visible = !copy.visible;
    return copy;
}

double total_area(void) {
    double t = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        t += shapes[i].area * (shapes[i].visible ? 1 : 0.5);
    return t;
}

int string_work(char *dst, size_t cap, const char *a, const char *b) {
    if (cap == 0)
        return -1;
    size_t la = strlen(a), lb = strlen(b);
    if (la + lb + 1 > cap)
        return -1;
    memcpy(dst, a, la);
    memmove(dst + la, b, lb + 1);
    return strcmp(dst, a) > 0 ? (int)(la + lb) : -(int)(la + lb);
}

static int next_id(void) {
    static int id = 100;
    return id++ + counter++;
}

int atomics(int *p) {
    int old = __atomic_fetch_add(p, 5, __ATOMIC_SEQ_CST);
    int expected = old + 5;
    __atomic_compare_exchange_n(p, &expected, 42, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return __atomic_load_n(p, __ATOMIC_RELAXED) + old;
}

int with_expect(int x) {
    if (__builtin_expect(x > 1000, 0))
        return -1;
    return x;
}

void fill(unsigned char *p, int n, unsigned char v) {
    for (int i = 0; i < n; i++)
        p[i] = v;
}

int saturate(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

bool is_sorted(const int *a, size_t n) {
    for (size_t i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return false;
    return true;
}

void bubble_sort(int *a, size_t n) {
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j + 1 < n - i; j++)
            if (a[j] > a[j + 1]) {
                int t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
}

int main(int argc, char **argv) {
    int data[16];
    for (int i = 0; i < 16; i++)
        data[i] = (i * 7919) % 16;
    bubble_sort(data, 16);
    struct node *list = NULL;
    for (int i = 0; i < argc; i++)
        list = push(list, i, argv[i]);
    char buf[64];
    int r = string_work(buf, sizeof buf, "abc", argc > 1 ? argv[1] : "def");
    int overflow;
    int ovf = checked_add(argc, 0x7fffffff, &overflow);
    union value v = make_value(argc % 4, 0x1234567890LL);
    struct shape s = copy_shape(first_shape);
    unsigned char bytes[32];
    fill(bytes, 32, (unsigned char)argc);
    int shared = 0;
    sink = atomics(&shared);
    printf("%d %d %s %d %d %lld %f %d %d %d %d %d %u %d %d\n", apply_op(argc % 3, 6, 7),
           sum_varargs(3, 0, 1, 1, 2.5, 0, 3), op_name((unsigned)argc), classify(argc + 'a'),
           r, mixed_arith(argc, 3, -2, 99), float_math(argc, 1.5f, precise),
           matrix_trace(), vla_sum(argc + 3), list_sum(list), recursive_fib(10),
           find_first(data, 16, 3), bit_tricks((unsigned)argc, 5), ovf + overflow,
           is_sorted(data, 16) + s.visible + (int)v.bytes[0] + next_id() + with_expect(argc) +
               saturate(argc, 0, 10) + (int)total_area() + ready + (int)ratios[1] +
               (int)*second_name_char + bytes[3]);
    free_list(list);
    return 0;
}
