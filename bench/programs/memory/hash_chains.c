/* Relocatable memory (seed 003 Ch. 3, thesis Fig. 3.1): chained hash tables with symbolic
 * keys. Three tables of 64 buckets, SIZE entries each; two lookups of symbolic keys in
 * table 0. A bucket's chain pointer may point into any node of table 0: the standard model
 * forks per node, DSMM merges table 0's nodes into one segment. */
#include <stdlib.h>
#include "../bench.h"

#define BUCKETS 64
#define TABLES 3

struct node {
  int key;
  int value;
  struct node *next;
};

struct table {
  struct node **buckets;
};

static struct table tables[TABLES];

static void insert(struct table *t, int key, int value) {
  unsigned h = (unsigned)key % BUCKETS;
  struct node *n = malloc(sizeof *n);
  n->key = key;
  n->value = value;
  n->next = t->buckets[h];
  t->buckets[h] = n;
}

static int lookup(struct table *t, int key) {
  unsigned h = (unsigned)key % BUCKETS;
  for (struct node *n = t->buckets[h]; n; n = n->next)
    if (n->key == key)
      return n->value;
  return -1;
}

int main(void) {
  for (int t = 0; t < TABLES; t++) {
    tables[t].buckets = calloc(BUCKETS, sizeof(struct node *));
    for (int i = 0; i < SIZE; i++)
      insert(&tables[t], t * 1000 + i * 5, i);
  }
  int a = klee_range(0, 5 * SIZE, "a");
  int b = klee_range(0, 5 * SIZE, "b");
  int x = lookup(&tables[0], a);
  int y = lookup(&tables[0], b);
  return x >= 0 && y >= 0 && x + y == SIZE;
}
