/* The body every program of bench/seeds/guards shares: a KEYLEN-byte key that must pass
 * GUARD(key) == EXPECTED, then a 4-byte command; the command "x" followed by a byte above
 * 'm' and '!' dereferences a null pointer. A seed with the right key and the command "help"
 * decides the guard; the bug needs exploration around it (the command's other sides, whose
 * queries read only the command). */
#include <klee/klee.h>
#include <stdio.h>

#include "guards.h"

int main(void) {
  unsigned char key[KEYLEN];
  char cmd[4];
  klee_make_symbolic(key, sizeof key, "key");
  klee_make_symbolic(cmd, sizeof cmd, "cmd");
  if (GUARD(key) != EXPECTED) {
    puts("denied");
    return 1;
  }
  switch (cmd[0]) {
  case 'h':
    puts("help");
    return 0;
  case 's':
    puts(cmd[1] == 'v' ? "status: verbose" : "status");
    return 0;
  case 'x':
    if (cmd[1] > 'm' && cmd[2] == '!') {
      volatile int *p = 0;
      return *p; /* the bug behind the guard */
    }
    puts("exec");
    return 0;
  default:
    puts("unknown command");
    return 2;
  }
}
