/* Address-aware caching (seed 003 Ch. 4): a chained hash table filled in a loop with
 * symbolic branching. Before each of SIZE insertions a symbolic command byte decides
 * whether a scratch record is allocated, so the 2^SIZE paths place the same nodes at
 * different addresses. Two lookups of symbolic keys then follow bucket pointers chosen by
 * the keys (symbolic pointers into the nodes): their queries repeat on every path up to the
 * node bases. */
#include <stdlib.h>
#include "../bench.h"

#define BUCKETS 8

struct node {
  int key;
  int value;
  struct node *next;
};

static struct node *buckets[BUCKETS];

static void insert(int key, int value) {
  struct node *n = malloc(sizeof *n);
  n->key = key;
  n->value = value;
  n->next = buckets[key % BUCKETS];
  buckets[key % BUCKETS] = n;
}

static int lookup(int key) {
  for (struct node *n = buckets[key % BUCKETS]; n; n = n->next)
    if (n->key == key)
      return n->value;
  return -1;
}

int main(void) {
  unsigned char commands[SIZE];
  klee_make_symbolic(commands, sizeof commands, "commands");
  for (int k = 0; k < SIZE; k++) {
    if (commands[k] == 'x')
      malloc(24); /* a scratch record: only the layout changes */
    insert(5 * k + 2, k);
  }
  int a = klee_range(0, 5 * SIZE + 2, "a");
  int b = klee_range(0, 5 * SIZE + 2, "b");
  int x = lookup(a);
  int y = lookup(b);
  return x >= 0 && y >= 0 && x < y;
}
