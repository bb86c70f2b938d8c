// cut: prints field N (-f N, 1-based) of each line, fields separated by -d C (default
// tab); lines without the delimiter are printed whole. Reads files or stdin.
// Each byte is a newline, a delimiter or another byte, except that once field N is found
// the rest of the line is only split into newline or not. Counting sequences of n bytes
// by state (field k being scanned, or found): -f 2 over 3 bytes gives 26, -f 1 gives 21.
// run: --sym-files 1 3 ;; -d : -f 2 A ;; 26
// run: --sym-stdin 3 ;; -f 1 ;; 21
// run: ;; -f x ;; 1
// expect-test-stdout: \n
// expect-test-stderr: cut: invalid field: x\n
// expect-replay: strict
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void cut_line(const char *line, size_t len, char delim, long field) {
    const char *start = line;
    long index = 1;
    int has_delim = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] != delim)
            continue;
        has_delim = 1;
        if (index == field) {
            fwrite(start, 1, (size_t)(line + i - start), stdout);
            putchar('\n');
            return;
        }
        index++;
        start = line + i + 1;
    }
    if (!has_delim || index == field)
        fwrite(start, 1, (size_t)(line + len - start), stdout);
    if (!has_delim || index == field)
        putchar('\n');
}

static void cut_file(FILE *f, char delim, long field) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        size_t len = (size_t)n;
        if (line[len - 1] == '\n')
            len--;
        cut_line(line, len, delim, field);
    }
    free(line);
}

int main(int argc, char **argv) {
    char delim = '\t';
    long field = 0;
    int c, status = 0;
    while ((c = getopt(argc, argv, "d:f:")) != -1) {
        if (c == 'd') {
            delim = optarg[0];
        } else if (c == 'f') {
            char *end;
            field = strtol(optarg, &end, 10);
            if (*end != '\0' || field < 1) {
                fprintf(stderr, "cut: invalid field: %s\n", optarg);
                return 1;
            }
        } else {
            return 1;
        }
    }
    if (field == 0) {
        fprintf(stderr, "cut: -f is required\n");
        return 1;
    }
    if (optind == argc)
        cut_file(stdin, delim, field);
    for (int i = optind; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            fprintf(stderr, "cut: %s: %s\n", argv[i], strerror(errno));
            status = 1;
            continue;
        }
        cut_file(f, delim, field);
        fclose(f);
    }
    return status;
}
