/* hash_guard.c where every command but 'w' loops forever, on the false side of the
 * command's branch: seeds taken in turn reach the bug behind 'w' whatever the order of
 * the states (crates/sear-cli/tests/seeds.rs). */
#include <klee/klee.h>
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

int main(void) {
  unsigned char key[8];
  unsigned char cmd[4];
  klee_make_symbolic(key, sizeof key, "key");
  klee_make_symbolic(cmd, sizeof cmd, "cmd");
  if (mix(key, 8) != 0x8515b74ed670ac2eull) {
    printf("denied\n");
    return 1;
  }
  if (cmd[0] == 'w') {
    int *p = 0;
    if (cmd[1] == '!')
      return *p; /* BUG: behind the guard */
  } else {
    for (;;)
      ;
  }
  printf("ok\n");
  return 0;
}
