/* Address-aware caching (seed 003 Ch. 4): a linked list built in a loop with symbolic
 * branching. Each of SIZE iterations allocates a node; a symbolic flag decides whether a
 * scratch record is allocated first, so the 2^SIZE paths lay the same list out at
 * different addresses. An index of the nodes is then searched from a symbolic position for
 * a symbolic key: a traversal through symbolic pointers whose branch queries are the same
 * on every path up to the node bases. */
#include <stdlib.h>
#include "../bench.h"

struct node {
  int key;
  int value;
  struct node *next;
};

int main(void) {
  unsigned char flags[SIZE];
  klee_make_symbolic(flags, sizeof flags, "flags");
  struct node *index[SIZE];
  struct node *head = 0;
  for (int k = 0; k < SIZE; k++) {
    if (flags[k] & 1)
      malloc(40); /* a scratch record: only the layout changes */
    struct node *n = malloc(sizeof *n);
    n->key = 3 * k + 1;
    n->value = k;
    n->next = head;
    head = n;
    index[k] = n;
  }
  unsigned start = klee_range(0, SIZE, "start");
  int key = klee_range(0, 3 * SIZE, "key");
  int steps = 0;
  for (struct node *n = index[start]; n; n = n->next, steps++)
    if (n->key == key)
      return steps;
  return -1;
}
