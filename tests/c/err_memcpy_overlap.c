// memcpy between overlapping ranges is undefined (ASan: memcpy-param-overlap); memmove and
// memcpy of a range onto itself are fine.
// Reasoning: k in [0, 8). memcpy(buf + k, buf, 4) overlaps for k in 1..3: one overlap error
// path; k == 0 (the same range) and k >= 4 go on. memmove(buf + 1, buf, 4) always overlaps
// and is allowed. 1 completed path, 1 error path.
// expect-completed: 1
// expect-error-paths: 1
#include <string.h>
#include "klee/klee.h"

int main(void) {
    char buf[16] = "abcdefghijklmno";
    unsigned k = klee_range(0, 8, "k");
    memmove(buf + 1, buf, 4);
    memcpy(buf + k, buf, 4); // expect-error: overlap
    return buf[4];
}
