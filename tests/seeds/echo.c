/* An echo over symbolic arguments (--sym-args): a previous run's tests seed the next run
 * (crates/sear-cli/tests/seeds.rs). */
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  int nl = 1, i = 1;
  if (argc > 1 && strcmp(argv[1], "-n") == 0) { nl = 0; i = 2; }
  for (; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1] == 'e') puts("escape");
    fputs(argv[i], stdout);
    if (i + 1 < argc) putchar(' ');
  }
  if (nl) putchar('\n');
  return 0;
}
