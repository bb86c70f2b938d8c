// Symbolic-size stdin (--sym-stdin 8 --sym-size-inputs): stdin holds a symbolic number n ≤ 8
// of bytes (object stdin-size, then stdin of n bytes). read() returns n (the count 16 is
// larger), and memcpy copies n bytes: in the symbolic-size modes a symbolic length is not
// concretised, each byte below the largest n becomes ite(i < n, new, old).
//
// fork-lazy, sm, smopt: 4 paths (n = 0; n = 3 with copy[2] = 'x' or not; any other n).
// fork-eager: one path per n = 0..8, and n = 3 splits on 'x': 10 paths.
// max: n = 8 only: 1 path.
// sear-args: --capacity=8 --sym-stdin 8 --sym-size-inputs
// mode max: completed_paths == 1
// mode fork-eager: completed_paths == 10
// mode fork-lazy: completed_paths == 4
// mode sm: completed_paths == 4
// mode smopt: completed_paths == 4
#include <string.h>
#include <unistd.h>

int main(void) {
  char buf[16];
  ssize_t n = read(0, buf, sizeof buf);
  if (n <= 0)
    return 1;
  char copy[16];
  memcpy(copy, buf, n);
  if (n == 3 && copy[2] == 'x')
    return 3;
  return 0;
}
