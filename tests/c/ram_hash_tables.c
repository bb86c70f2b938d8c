// Seed 003 §2.8 test 2 (thesis Fig. 3.1): three chained hash tables of 300 buckets with five
// entries each; a lookup with a symbolic key in table 0. The bucket pointer resolves to the
// nodes of table 0 only, so the DSMM segment holds exactly those five nodes (16 bytes and a
// 16-byte internal red zone each), never the nodes of tables 1 and 2.
// sear-args: --use-sym-addr --merge-objects
// expect-error-paths: 0
// expect-summary: memory.stats.objects_merged == 5
// expect-summary: memory.stats.largest_segment == 160
#include <stdlib.h>
#include "klee/klee.h"

#define BUCKETS 300

struct node {
  int key;
  int value;
  struct node *next;
};

struct table {
  struct node **buckets;
};

static struct table tables[3];

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
  for (int t = 0; t < 3; t++) {
    tables[t].buckets = calloc(BUCKETS, sizeof(struct node *));
    for (int i = 0; i < 5; i++)
      insert(&tables[t], t * 1000 + i * 7, i);
  }
  int k = klee_range(0, 40, "k");
  return lookup(&tables[0], k) >= 0;
}
