// Recursion over a linked list of structs built on the stack and the heap.
// expect-completed: 4
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

struct node {
    char tag;
    int value;
    struct node *next;
};

static int sum(const struct node *n) {
    if (!n)
        return 0;
    return n->value + sum(n->next);
}

int main(void) {
    struct node *head = 0;
    for (int i = 0; i < 3; i++) {
        struct node *n = malloc(sizeof *n);
        n->tag = 'a' + i;
        n->value = i;
        n->next = head;
        head = n;
    }
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    head->value = x;
    int s = sum(head);
    if (s == 3) return 1;
    if (s > 3) return 2;
    if (s < -100) return 3;
    return 0;
}
