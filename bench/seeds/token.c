/* A fuzzer-corpus demo (bench/seeds/README.md): a request read from stdin, accepted only
 * with an 8-byte token whose 64-bit hash matches (the solver cannot invert it in the
 * budget), then a small command interpreter. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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

static int number(const unsigned char *p, int n) {
  int v = 0;
  for (int i = 0; i < n && p[i] >= '0' && p[i] <= '9'; i++)
    v = v * 10 + (p[i] - '0');
  return v;
}

int main(void) {
  unsigned char req[24];
  memset(req, 0, sizeof req);
  if (read(0, req, sizeof req) < 10) {
    puts("short request");
    return 2;
  }
  if (mix(req, 8) != 0x8515b74ed670ac2eull) {
    puts("bad token");
    return 1;
  }
  const unsigned char *arg = req + 10;
  int v = number(arg, 4);
  switch (req[8]) {
  case 'g':
    printf("get %d\n", v);
    if (req[9] == '*')
      puts("get all");
    break;
  case 'p':
    if (v > 100)
      puts("put: too large");
    else if (v == 0)
      puts("put: empty");
    else
      printf("put %d\n", v);
    break;
  case 'd':
    if (req[9] == '/')
      printf("div %d\n", 1000 / (v - 7)); /* division by zero for 7 */
    else
      puts("del");
    break;
  case 'q':
    puts("quit");
    return 0;
  default:
    puts("unknown command");
    return 3;
  }
  return 0;
}
