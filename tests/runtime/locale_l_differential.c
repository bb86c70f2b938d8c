// Differential test against glibc for the C locale's *_l functions, the rest of wchar.h
// libc++'s locales and wide streams call (wmem*, wide comparison, wcsto*, swprintf, one
// stream's fputwc/fgetwc/ungetwc) and nl_types.h's catalogs: concrete calls only (1 path);
// sear replay runs the same program natively on glibc and requires identical output.
// Class tests are compared as booleans (glibc returns its class bit), comparisons by sign.
// Wide characters are ASCII only: glibc converts a wide stream's characters when it
// flushes, so a character >= 0x80 fails at fclose natively but at fputwc under sear.
// expect-completed: 1
// expect-error-paths: 0
// expect-replay: strict
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <nl_types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>

static int sign(long v) { return (v > 0) - (v < 0); }

/* A wide string as bytes (ASCII), for printf (sear's printf has no %ls). */
static const char *narrow(const wchar_t *w) {
    static char out[4][64];
    static int next;
    char *o = out[next++ % 4];
    size_t i = 0;
    for (; w[i] != L'\0' && i < 63; i++)
        o[i] = (char)w[i];
    o[i] = '\0';
    return o;
}

int main(void) {
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t posix = newlocale(LC_ALL_MASK, "POSIX", (locale_t)0);
    locale_t dup = duplocale(c);
    printf("newlocale %d %d dup %d bogus %d\n", c != 0, posix != 0, dup != 0,
           newlocale(LC_ALL_MASK, "xx_YY.bogus", (locale_t)0) == 0);
    locale_t old = uselocale(c);
    printf("uselocale %d\n", old != 0);
    uselocale(old);
    const int chars[] = {'a', 'Z', '5', ' ', '\t', '!', 0x7f, 0, 0xe9};
    for (size_t i = 0; i < sizeof chars / sizeof chars[0]; i++) {
        int ch = chars[i];
        printf("%02x: al%d ap%d bl%d cn%d dg%d gr%d lo%d pr%d pu%d sp%d up%d xd%d lower %02x "
               "upper %02x\n",
               ch, !!isalnum_l(ch, c), !!isalpha_l(ch, c), !!isblank_l(ch, c),
               !!iscntrl_l(ch, c), !!isdigit_l(ch, c), !!isgraph_l(ch, c), !!islower_l(ch, c),
               !!isprint_l(ch, c), !!ispunct_l(ch, c), !!isspace_l(ch, c), !!isupper_l(ch, c),
               !!isxdigit_l(ch, c), tolower_l(ch, c), toupper_l(ch, c));
        printf("   w: al%d ap%d bl%d cn%d dg%d lo%d pr%d pu%d sp%d up%d xd%d lower %02x "
               "upper %02x\n",
               !!iswalnum_l(ch, c), !!iswalpha_l(ch, c), !!iswblank_l(ch, c),
               !!iswcntrl_l(ch, c), !!iswdigit_l(ch, c), !!iswlower_l(ch, c),
               !!iswprint_l(ch, c), !!iswpunct_l(ch, c), !!iswspace_l(ch, c),
               !!iswupper_l(ch, c), !!iswxdigit_l(ch, c), (unsigned)towlower_l(ch, c),
               (unsigned)towupper_l(ch, c));
    }
    char *end;
    printf("strtoll_l %lld %s strtoull_l %llu %s strtol_l %ld strtoul_l %lu\n",
           strtoll_l("  -42xyz", &end, 10, c), end, strtoull_l("0x1fG", &end, 16, c), end,
           strtol_l("077", NULL, 0, c), strtoul_l("101", NULL, 2, c));
    printf("strtod_l %g strcoll_l %d %d\n", strtod_l("2.5e1", NULL, c),
           sign(strcoll_l("abc", "abd", c)), sign(strcoll_l("b", "a", c)));
    char x[8];
    printf("strxfrm_l %zu %s %zu\n", strxfrm_l(x, "abc", sizeof x, c), x,
           strxfrm_l(NULL, "abcdef", 0, c));
    wchar_t wx[8];
    size_t nx = wcsxfrm_l(wx, L"xyz", 8, c);
    printf("wcscoll_l %d wcsxfrm_l %zu %s\n", sign(wcscoll_l(L"ab", L"aa", c)), nx, narrow(wx));
    struct tm tm = {.tm_year = 123, .tm_mon = 10, .tm_mday = 14, .tm_hour = 22, .tm_min = 13};
    char when[64];
    size_t n = strftime_l(when, sizeof when, "%Y-%m-%d %H:%M %a %b", &tm, c);
    printf("strftime_l %zu %s\n", n, when);

    const wchar_t w[] = L"hello, world";
    wchar_t *hit = wmemchr(w, L'o', 12);
    printf("wmemchr %ld %d wmemcmp %d %d %d\n", hit ? (long)(hit - w) : -1L,
           wmemchr(w, L'z', 12) == NULL, sign(wmemcmp(L"abc", L"abd", 3)),
           sign(wmemcmp(L"abc", L"abc", 3)), sign(wmemcmp(L"b", L"a", 1)));
    wchar_t buf[16];
    wmemset(buf, L'x', 3);
    wmemcpy(buf + 3, L"yz", 3);
    wmemmove(buf + 1, buf, 4);
    buf[5] = L'\0';
    printf("wmem* %s wcscmp %d %d %d wcsncmp %d %d wcschr %ld %d\n", narrow(buf),
           sign(wcscmp(L"abc", L"abd")), sign(wcscmp(L"abc", L"ab")),
           sign(wcscmp(L"", L"")), sign(wcsncmp(L"abcx", L"abcy", 3)),
           sign(wcsncmp(L"abcx", L"abcy", 4)), (long)(wcschr(w, L',') - w),
           wcschr(w, L'q') == NULL);

    wchar_t *wend;
    printf("wcstol %ld %ld wcstoul %lu wcstoll %lld wcstoull %llu\n",
           wcstol(L"  -123abc", &wend, 10), (long)(wend - L"  -123abc"),
           wcstoul(L"ff", NULL, 16), wcstoll(L"0x7fffffffffffffff", NULL, 0),
           wcstoull(L"18446744073709551615", NULL, 10));
    const wchar_t *num = L" 3.25e2\x263a";
    double d = wcstod(num, &wend);
    printf("wcstod %g %ld wcstof %g wcstold %Lg none %g %d\n", d, (long)(wend - num),
           (double)wcstof(L"1.5", NULL), wcstold(L"-0.125", NULL), wcstod(L"x", &wend),
           wend == NULL);
    wchar_t out[32];
    int r = swprintf(out, 32, L"%d-%s-%5.2f|%x", 42, "ab", 3.14159, 255u);
    printf("swprintf %d %s\n", r, narrow(out));
    printf("swprintf short %d\n", swprintf(out, 4, L"%d", 123456));
    r = swprintf(out, 4, L"%d", 123);
    printf("swprintf exact %d %s\n", r, narrow(out));

    FILE *f = fopen("wide.txt", "w");
    printf("fputwc %x %x putwc %x\n", (unsigned)fputwc(L'a', f), (unsigned)fputwc(L'b', f),
           (unsigned)putwc(L'\n', f));
    fclose(f);
    f = fopen("wide.txt", "r");
    wint_t a = fgetwc(f);
    printf("fgetwc %x ungetwc %x getwc %x %x %x eof %d\n", (unsigned)a,
           (unsigned)ungetwc(L'z', f), (unsigned)getwc(f), (unsigned)getwc(f),
           (unsigned)getwc(f), fgetwc(f) == WEOF);
    fclose(f);

    errno = 0;
    nl_catd cat = catopen("sear-no-such-catalog", 0);
    int open_errno = errno;
    printf("catopen %d errno %d catgets %s catclose %d\n", cat == (nl_catd)-1, open_errno,
           catgets(cat, 1, 1, "default text"), catclose(cat));
    freelocale(dup);
    freelocale(posix);
    freelocale(c);
    return 0;
}
