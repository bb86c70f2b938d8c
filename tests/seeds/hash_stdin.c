/* The hash guard over stdin (--sym-stdin 16): the first 8 bytes are the key, then a
 * command; seeded by a raw file (--seed-format raw-stdin). */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static uint64_t mix(const unsigned char *p, int n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  return h;
}

int main(void) {
  unsigned char buf[16] = {0};
  if (read(0, buf, sizeof buf) < 10)
    return 2;
  if (mix(buf, 8) != 0x8515b74ed670ac2eull) {
    printf("denied\n");
    return 1;
  }
  if (buf[8] == 'w' && buf[9] == '!') {
    int *p = 0;
    return *p; /* BUG: behind the guard */
  }
  printf("ok\n");
  return 0;
}
