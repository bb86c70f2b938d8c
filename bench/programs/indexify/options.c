/* Indexify strings (seed 004): an option parser over the POSIX model's symbolic argument
 * (run with --sym-arg N): the argument strings become symbolic garden indices. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2)
    return 9;
  const char *a = argv[1];
  if (strcmp(a, "--help") == 0) {
    puts("usage: options [--help|--version|-v|-o FILE|--name=NAME]");
    return 0;
  }
  if (strcmp(a, "--version") == 0) {
    puts("options 1.0");
    return 1;
  }
  if (strncmp(a, "--name=", 7) == 0) {
    puts(strlen(a) > 7 ? "named" : "empty name");
    return 2;
  }
  if (strcmp(a, "-v") == 0)
    return 3;
  if (strchr(a, '=')) {
    puts("assignment");
    return 4;
  }
  if (a[0] == '-') {
    puts("unknown option");
    return 5;
  }
  return 6;
}
