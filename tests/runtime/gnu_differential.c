// Differential test against glibc: fnmatch, strverscmp, newlocale/strtod_l, the device-number macros'
// functions, error_at_line, the user and group databases (only what root's entries have
// in common with a Debian system's) and statx; concrete calls only (1 path), so sear replay
// compares every line with glibc's.
// expect-completed: 1
// expect-error-paths: 0
// expect-replay: strict
#define _GNU_SOURCE
#include <error.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <grp.h>
#include <locale.h>
#include <stdlib.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *const patterns[][2] = {
    {"*.c", "main.c"},      {"*.c", "main.h"},        {"?", ""},           {"a?c", "abc"},
    {"[abc]x", "bx"},       {"[!abc]x", "bx"},        {"[^a-c]x", "dx"},   {"[a-]", "-"},
    {"[]]", "]"},           {"[!]]", "a"},            {"\\*", "*"},        {"\\*", "a"},
    {"[[:digit:]]*", "7z"}, {"[[:alpha:][:digit:]]", "_"}, {"[", "["},    {"a[", "a["},
    {"*", ".hidden"},       {"*/*", "a/b"},           {"a*b*c", "aXbYc"},  {"a*b*c", "aXbY"},
    {"**x", "yyx"},         {"[a-c-e]", "d"},         {"[z-a]", "m"},      {"ab", "AB"},
};

int main(void) {
    const int flag_sets[] = {0, FNM_PATHNAME, FNM_PERIOD, FNM_NOESCAPE, FNM_CASEFOLD,
                             FNM_PATHNAME | FNM_PERIOD, FNM_LEADING_DIR};
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        printf("%-22s %-8s", patterns[i][0], patterns[i][1]);
        for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++)
            printf(" %d", fnmatch(patterns[i][0], patterns[i][1], flag_sets[f]) == 0);
        printf("\n");
    }
    printf("pathname: %d %d %d\n", fnmatch("a/*", "a/.b", FNM_PATHNAME | FNM_PERIOD) == 0,
           fnmatch("a/?b", "a/.b", FNM_PATHNAME) == 0, fnmatch("a", "a/b/c", FNM_LEADING_DIR) == 0);
    const char *versions[] = {"a", "a0", "a01", "a1", "a9", "a10", "a010", "a001", "1.2", "1.10",
                              "000", "00", "01", "010", "09", "0", "1", "9", "10", "b"};
    size_t n = sizeof versions / sizeof versions[0];
    for (size_t i = 0; i < n; i++) {
        printf("%-5s", versions[i]);
        for (size_t j = 0; j < n; j++) {
            int c = strverscmp(versions[i], versions[j]);
            putchar(c < 0 ? '<' : c > 0 ? '>' : '=');
        }
        printf("\n");
    }
    dev_t d = makedev(0x12345, 0x6789a);
    printf("dev %llx major %x minor %x\n", (unsigned long long)d, major(d), minor(d));
    struct passwd *root = getpwnam("root");
    struct group *group = getgrgid(0);
    printf("root uid %d gid %d name %s group %s unknown %d %d\n", root ? (int)root->pw_uid : -1,
           root ? (int)root->pw_gid : -1, getpwuid(0) ? getpwuid(0)->pw_name : "-",
           group ? group->gr_name : "-", getpwnam("no-such-user-x") == NULL,
           getgrnam("no-such-group-x") == NULL);
    struct stat st;
    struct statx sx;
    int fd = open("gnu_stat_file", O_CREAT | O_WRONLY, 0644);
    write(fd, "hello", 5);
    close(fd);
    int r = statx(AT_FDCWD, "gnu_stat_file", 0, STATX_BASIC_STATS, &sx);
    stat("gnu_stat_file", &st);
    printf("statx %d size %llu mode %o same-ino %d\n", r, (unsigned long long)sx.stx_size,
           sx.stx_mode & 0777, sx.stx_ino == st.st_ino);
    r = statx(AT_FDCWD, "no-such-file", 0, STATX_BASIC_STATS, &sx);
    printf("statx missing %d\n", r);
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    const char *number = "2.5e3x";
    char *end;
    double v = strtod_l(number, &end, c);
    printf("newlocale %d strtod_l %g %d unknown %d\n", c != (locale_t)0, v, (int)(end - number),
           newlocale(LC_ALL_MASK, "xx_YY.no-such", (locale_t)0) == (locale_t)0);
    freelocale(c);
    fflush(stdout);
    error_at_line(0, 0, "input.txt", 3, "bad %s", "line");
    error_at_line(0, 2, "input.txt", 4, "worse");
    return 0;
}
