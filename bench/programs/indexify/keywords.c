/* Indexify strings (seed 004): a command interpreter over a symbolic line of SIZE bytes:
 * keyword comparisons (strcmp, strncmp, strcasecmp), a substring test (strstr) and a
 * length check. Without indexify every comparison forks over the line's bytes. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <klee/klee.h>

#ifndef SIZE
#define SIZE 32
#endif

static int command(const char *line) {
  if (strcmp(line, "quit") == 0)
    return 0;
  if (strcmp(line, "status") == 0)
    return 1;
  if (strncmp(line, "set ", 4) == 0) {
    if (strstr(line, "="))
      return 2;
    return 3;
  }
  if (strncmp(line, "get ", 4) == 0)
    return 4;
  if (strcasecmp(line, "HELP") == 0)
    return 5;
  if (strstr(line, "--"))
    return 6;
  if (strlen(line) > 8)
    return 7;
  return 8;
}

int main(void) {
  char line[SIZE];
  klee_make_symbolic(line, sizeof line, "line");
  line[SIZE - 1] = '\0';
  int r = command(line);
  printf("%d\n", r);
  return r;
}
