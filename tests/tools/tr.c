// tr: translates stdin bytes in SET1 to the matching bytes of SET2 (ranges a-z allowed;
// SET2 is padded with its last byte), or deletes them with -d. Translation is a table
// lookup, so it never forks (1 path, the output bytes are symbolic reads of the table);
// deletion tests each byte: 2^n paths.
// run: --sym-stdin 3 ;; a-c x-z ;; 1
// run: --sym-stdin 3 ;; -d a-c ;; 8
// run: ;; -d ;; 1
// expect-test-stderr: usage: tr [-d] SET1 [SET2]\n
// expect-replay: strict
#include <stdio.h>
#include <string.h>

/* Expands ranges: "a-c" becomes "abc". */
static size_t expand(const char *set, unsigned char *out) {
    size_t n = 0;
    for (size_t i = 0; set[i] != '\0'; i++) {
        unsigned char c = (unsigned char)set[i];
        if (set[i + 1] == '-' && set[i + 2] != '\0') {
            for (unsigned d = c; d <= (unsigned char)set[i + 2] && n < 256; d++)
                out[n++] = (unsigned char)d;
            i += 2;
        } else if (n < 256) {
            out[n++] = c;
        }
    }
    return n;
}

int main(int argc, char **argv) {
    int delete = argc > 1 && strcmp(argv[1], "-d") == 0;
    int first = delete ? 2 : 1;
    if (argc != first + (delete ? 1 : 2)) {
        fputs("usage: tr [-d] SET1 [SET2]\n", stderr);
        return 1;
    }
    unsigned char map[256], drop[256] = {0}, set1[256], set2[256];
    for (int i = 0; i < 256; i++)
        map[i] = (unsigned char)i;
    size_t n1 = expand(argv[first], set1);
    if (delete) {
        for (size_t i = 0; i < n1; i++)
            drop[set1[i]] = 1;
    } else {
        size_t n2 = expand(argv[first + 1], set2);
        if (n2 == 0) {
            fputs("tr: SET2 is empty\n", stderr);
            return 1;
        }
        for (size_t i = 0; i < n1; i++)
            map[set1[i]] = set2[i < n2 ? i : n2 - 1];
    }
    int c;
    while ((c = getchar()) != EOF) {
        if (drop[c])
            continue;
        putchar(map[c]);
    }
    return 0;
}
