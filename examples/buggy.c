/* A small parser with an off-by-one bug: sear finds the input that overflows `fields`. */
#include "klee/klee.h"

#define MAX_FIELDS 4

static int count_fields(const char *line, int len, int *fields) {
    int n = 0;
    for (int i = 0; i < len; i++) {
        if (line[i] == ',') {
            fields[n] = i; /* BUG: no check that n < MAX_FIELDS */
            n++;
        }
    }
    return n;
}

int main(void) {
    char line[6];
    int fields[MAX_FIELDS];
    klee_make_symbolic(line, sizeof line, "line");
    return count_fields(line, sizeof line, fields) > 2;
}
