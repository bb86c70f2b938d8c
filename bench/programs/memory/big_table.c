/* Relocatable memory (seed 003 Ch. 3, splitting): a SIZE-byte table built at run time on the
 * heap and read at two symbolic offsets. The standard model's queries carry the whole
 * table's array; split into chunks, each query carries only the chunks an offset reaches. */
#include <stdlib.h>
#include "../bench.h"

int main(void) {
  unsigned char *table = malloc(SIZE);
  unsigned state = 12345;
  for (int i = 0; i < SIZE; i++) {
    state = state * 1103515245u + 12345u;
    table[i] = (unsigned char)(state >> 16);
  }
  unsigned a = klee_range(0, SIZE / 2, "a");
  unsigned b = klee_range(SIZE / 2, SIZE, "b");
  unsigned char x = table[a];
  unsigned char y = table[b];
  if (x == y)
    return 1;
  if (x > y)
    return 2;
  return 0;
}
