/* The hash guard over argv[1] (--sym-args 1 2 8), with a command in argv[2]; seeded by
 * a raw file of NUL-separated arguments (--seed-format raw-args). */
#include <stdint.h>
#include <stdio.h>

static uint64_t mix(const unsigned char *p, int n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  return h;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  if (mix((const unsigned char *)argv[1], 8) != 0x8515b74ed670ac2eull) {
    printf("denied\n");
    return 1;
  }
  if (argv[2][0] == 'w' && argv[2][1] == '!') {
    int *p = 0;
    return *p; /* BUG: behind the guard */
  }
  printf("ok\n");
  return 0;
}
