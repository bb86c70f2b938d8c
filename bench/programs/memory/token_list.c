/* Relocatable memory (seed 003 Ch. 3): an allocator-heavy parser. A symbolic buffer of SIZE
 * bytes is split into tokens, each copied into its own malloc'd node of a list; an index of
 * the tokens is then read at a symbolic position. Every token pointer may point into any
 * token node: one fork per node in the standard model, one segment with DSMM. */
#include <stdlib.h>
#include <string.h>
#include "../bench.h"

struct token {
  char text[8];
  int length;
};

int main(void) {
  char input[SIZE];
  klee_make_symbolic(input, sizeof input, "input");
  struct token *tokens[SIZE];
  int count = 0;
  for (int at = 0; at < SIZE;) {
    int len = 1;
    while (at + len < SIZE && len < 7 && input[at + len] != ' ')
      len++;
    struct token *t = malloc(sizeof *t);
    memcpy(t->text, input + at, len);
    t->text[len] = 0;
    t->length = len;
    tokens[count++] = t;
    at += len + 1;
    if (count >= 3)
      break;
  }
  unsigned k = klee_range(0, count, "k");
  struct token *t = tokens[k];
  if (t->text[0] == '#' && t->length > 1)
    return 1;
  return 0;
}
