/* Address-aware caching's overhead (seed 003 §3.6): no query depends on an address. A
 * SIZE-byte symbolic message is copied into a heap buffer and parsed by a small state
 * machine at concrete offsets, so every query is about input bytes only. */
#include <stdlib.h>
#include <string.h>
#include "../bench.h"

int main(void) {
  char input[SIZE];
  klee_make_symbolic(input, sizeof input, "input");
  char *buf = malloc(SIZE);
  memcpy(buf, input, SIZE);
  int state = 0, fields = 0;
  for (int k = 0; k < SIZE; k++) {
    char c = buf[k];
    switch (state) {
    case 0:
      if (c == '{')
        state = 1;
      else if (c != ' ')
        return -1;
      break;
    case 1:
      if (c >= 'a' && c <= 'z')
        state = 2;
      else if (c == '}')
        state = 3;
      else
        return -2;
      break;
    case 2:
      if (c == ':') {
        state = 1;
        fields++;
      } else if (c < 'a' || c > 'z') {
        return -3;
      }
      break;
    default:
      free(buf);
      return fields;
    }
  }
  free(buf);
  return state == 3 ? fields : -4;
}
