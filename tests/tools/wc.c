// wc: counts lines, words and bytes of stdin or of files; -l, -w, -c select counts.
// With n symbolic bytes each byte is a newline, other white space or a word byte: 3^n
// paths (whether a word byte starts a word is decided by the previous bytes).
// run: --sym-stdin 4 ;; ;; 81
// run: --sym-stdin 3 ;; -w ;; 27
// run: --sym-files 1 2 ;; -l A nofile ;; 9
// expect-test-stdout: 0 0 4\n
// expect-test-stdout: 4 0 4\n
// expect-test-stdout: 2 2 4\n
// expect-test-stdout: 1\n
// expect-test-stdout: 0 A\n
// expect-test-stderr: wc: nofile: No such file or directory\n
// expect-replay: strict
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int show_lines, show_words, show_bytes;

static void count(FILE *f, const char *name) {
    long lines = 0, words = 0, bytes = 0;
    int c, in_word = 0;
    while ((c = getc(f)) != EOF) {
        bytes++;
        if (c == '\n')
            lines++;
        if (isspace(c))
            in_word = 0;
        else if (!in_word) {
            in_word = 1;
            words++;
        }
    }
    const char *sep = "";
    if (show_lines) {
        printf("%ld", lines);
        sep = " ";
    }
    if (show_words) {
        printf("%s%ld", sep, words);
        sep = " ";
    }
    if (show_bytes)
        printf("%s%ld", sep, bytes);
    if (name)
        printf(" %s", name);
    putchar('\n');
}

int main(int argc, char **argv) {
    int c, status = 0;
    while ((c = getopt(argc, argv, "lwc")) != -1) {
        if (c == 'l')
            show_lines = 1;
        else if (c == 'w')
            show_words = 1;
        else if (c == 'c')
            show_bytes = 1;
        else {
            fprintf(stderr, "usage: wc [-lwc] [file...]\n");
            return 2;
        }
    }
    if (!show_lines && !show_words && !show_bytes)
        show_lines = show_words = show_bytes = 1;
    if (optind == argc) {
        count(stdin, NULL);
        return 0;
    }
    for (int i = optind; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            fprintf(stderr, "wc: %s: %s\n", argv[i], strerror(errno));
            status = 1;
            continue;
        }
        count(f, argv[i]);
        fclose(f);
    }
    return status;
}
