// Differential test against glibc: concrete calls only (1 path); sear replay runs the same
// program natively on glibc and requires identical stdout, stderr and exit code. Covers
// getopt_long (permutation, abbreviations, errors on stderr), strtol/strtoul/strtod edge
// cases, sscanf, printf formats, strftime, qsort stability, rand, ctype over all bytes,
// strerror, strtok and the search functions.
// expect-completed: 1
// expect-error-paths: 0
// expect-replay: strict
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void run_getopt(int argc, char **argv, int long_only) {
    static const struct option opts[] = {
        {"verbose", no_argument, NULL, 'v'},
        {"output", required_argument, NULL, 'o'},
        {"color", optional_argument, NULL, 'c'},
        {"colour", optional_argument, NULL, 'c'},
        {"count", required_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    optind = 0;
    int c, index = -1;
    while ((c = long_only ? getopt_long_only(argc, argv, "vo:c::n:", opts, &index)
                          : getopt_long(argc, argv, "vo:c::n:", opts, &index)) != -1)
        printf(" [%c %s %d]", c == '?' ? '?' : c, optarg ? optarg : "-", c == '?' ? optopt : index);
    printf(" |");
    for (int i = optind; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");
}

static int by_key(const void *a, const void *b) { return ((const int *)a)[0] - ((const int *)b)[0]; }

int main(void) {
    char *a1[] = {"p", "x", "-v", "--output=f", "y", "--col", "--co", "--count", "3", "-oz", "--", "-v", NULL};
    run_getopt(12, a1, 0);
    char *a2[] = {"p", "--verb", "--output", "-cyes", "-c", "q", "--bogus", "-x", "--verbose=1", "--count", NULL};
    run_getopt(10, a2, 0);
    char *a3[] = {"p", "-verbose", "-out", "o1", "-v", "-count=4", "-z", NULL};
    run_getopt(7, a3, 1);
    char *a4[] = {"p", "+x", "-", "-n", NULL};
    run_getopt(4, a4, 0);

    const char *nums[] = {"42", "  -17xyz", "+0x1f", "0x", "077", "9223372036854775807", "9223372036854775808",
                          "-9223372036854775809", "", "  ", "z", "0b1", "-0", "18446744073709551615", "18446744073709551616"};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        char *end;
        errno = 0;
        long v = strtol(nums[i], &end, 0);
        int e1 = errno;
        errno = 0;
        unsigned long u = strtoul(nums[i], NULL, 10);
        printf("strtol(%s) = %ld end %d errno %d; strtoul = %lu errno %d\n", nums[i], v, (int)(end - nums[i]), e1, u, errno);
    }
    printf("base36 %ld base2 %ld atoi %d atol %ld\n", strtol("zz", NULL, 36), strtol("-101", NULL, 2), atoi(" 12abc"), atol("-7"));
    const char *dbl[] = {"3.14", "-0.5e3", "1e-5", "inf", "-Infinity", "nan", "0x1.8p1", ".5", "5.", "1e400", "abc", "12.5kg"};
    for (size_t i = 0; i < sizeof dbl / sizeof dbl[0]; i++) {
        char *end;
        double d = strtod(dbl[i], &end);
        printf("strtod(%s) = %g (%a) end %d\n", dbl[i], d, d, (int)(end - dbl[i]));
    }

    int x = 0, y = 0, n = 0;
    unsigned hx = 0;
    char w[16] = "", set[16] = "", ch = 0;
    float f = 0;
    int r = sscanf("  12,-4 abc def 0x1F z 2.5 tail", "%d,%d %15s %15[a-f] %x %c %f%n", &x, &y, w, set, &hx, &ch, &f, &n);
    printf("sscanf %d: %d %d %s %s %u %c %g %d\n", r, x, y, w, set, hx, ch, f, n);
    printf("sscanf empty %d, mismatch %d\n", sscanf("", "%d", &x), sscanf("abc", "%d", &x));

    printf("[%8.3f][%-+8.2e][%#.0f][%g][%G][%.10g][%5.1s][%-3c][%lld][%#o][%hx][%%]\n", -3.14159, 1234.5, 2.0, 1e-10,
           123456789.0, 1.0 / 7, "xyz", 'k', -123456789012LL, 0, (unsigned short)0xabcd);
    printf("[%.0e][%.1e][%e][%g][%g][%.3a][%A]\n", 5e-324, 1.75, 1e308, 0.0001, 0.00001, 3.0, -0.1);

    time_t t = 86400 * 366 + 3600 * 5 + 7;
    struct tm tm;
    char buf[128];
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %A %b %B %j %u %w %y %e %I %p %D %T %F %%", &tm);
    printf("%s\n", buf);

    int pairs[6][2] = {{3, 0}, {1, 1}, {3, 2}, {2, 3}, {1, 4}, {3, 5}};
    qsort(pairs, 6, sizeof pairs[0], by_key);
    for (int i = 0; i < 6; i++)
        printf("%d/%d ", pairs[i][0], pairs[i][1]);
    srand(12345);
    printf("\nrand %d %d %d\n", rand(), rand(), rand());

    unsigned long classes = 0;
    for (int c = -1; c < 256; c++) {
        classes = classes * 31 + (unsigned long)(!!isalnum(c) + 2 * !!isalpha(c) + 4 * !!iscntrl(c) + 8 * !!isdigit(c) +
                                                 16 * !!isgraph(c) + 32 * !!islower(c) + 64 * !!isprint(c) +
                                                 128 * !!ispunct(c) + 256 * !!isspace(c) + 512 * !!isupper(c) +
                                                 1024 * !!isxdigit(c) + 2048 * !!isblank(c));
        classes = classes * 31 + (unsigned long)(tolower(c) + 7 * toupper(c));
    }
    printf("ctype hash %lu\n", classes);
    for (int e = 0; e < 40; e++)
        printf("%d:%s;", e, strerror(e));
    printf("\n");

    char text[] = "a,b,,c;d";
    for (char *tok = strtok(text, ",;"); tok; tok = strtok(NULL, ",;"))
        printf("<%s>", tok);
    printf(" %zu %zu %s %s %s %d %d\n", strspn("aabbc", "ab"), strcspn("xyz,", ","), strstr("haystack", "st"),
           strrchr("a/b/c", '/'), strpbrk("hello", "ol"), strncmp("abc", "abd", 2), strcasecmp("HeLLo", "hello"));
    return 0;
}
