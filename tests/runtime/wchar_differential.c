// Differential test against glibc for the C locale's multibyte and wide characters, and
// stdio_ext.h: concrete calls only (1 path); sear replay runs the same program natively on
// glibc and requires identical output (class tests compared as booleans: glibc returns its
// class bit). In glibc's C locale the character set is ASCII:
// bytes >= 0x80 are invalid (EILSEQ), the wide classes are ASCII's, wcwidth is 1 for
// printable ASCII, 0 for L'\0', -1 otherwise.
// expect-completed: 1
// expect-error-paths: 0
// expect-replay: strict
#define _GNU_SOURCE
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

int main(void) {
    setlocale(LC_ALL, "");
    mbstate_t st;
    memset(&st, 0, sizeof st);
    printf("MB_CUR_MAX %d mbsinit %d %d\n", (int)MB_CUR_MAX, mbsinit(&st), mbsinit(NULL));
    const unsigned char bytes[] = {0, 1, 'a', ' ', 0x7f, 0x80, 0xe9, 0xff};
    for (size_t i = 0; i < sizeof bytes; i++) {
        char c = (char)bytes[i];
        wchar_t w = 0x5555;
        errno = 0;
        size_t r = mbrtowc(&w, &c, 1, &st);
        printf("%02x: mbrtowc %ld w %x errno %d mbrlen %ld mbtowc %d btowc %d wctob %d\n",
               bytes[i], (long)r, (unsigned)w, errno, (long)mbrlen(&c, 1, &st),
               mbtowc(NULL, &c, 1), (int)btowc(bytes[i]), wctob(bytes[i]));
    }
    printf("mbrtowc(n=0) %ld mbrtowc(NULL) %ld btowc(EOF) %d\n", (long)mbrtowc(NULL, "a", 0, &st),
           (long)mbrtowc(NULL, NULL, 0, &st), (int)btowc(EOF));
    const wint_t wides[] = {0, 9, 'A', 'z', '5', '!', ' ', 0x7f, 0x80, 0xe9, 0x263a, 0x3000};
    for (size_t i = 0; i < sizeof wides / sizeof wides[0]; i++) {
        wint_t w = wides[i];
        printf("%x: al%d ap%d bl%d cn%d dg%d gr%d lo%d pr%d pu%d sp%d up%d xd%d lower %x "
               "upper %x width %d ctype %d\n",
               (unsigned)w, !!iswalnum(w), !!iswalpha(w), !!iswblank(w), !!iswcntrl(w),
               !!iswdigit(w), !!iswgraph(w), !!iswlower(w), !!iswprint(w), !!iswpunct(w),
               !!iswspace(w), !!iswupper(w), !!iswxdigit(w), (unsigned)towlower(w),
               (unsigned)towupper(w), wcwidth((wchar_t)w), !!iswctype(w, wctype("alpha")));
    }
    char out[8];
    errno = 0;
    printf("wcrtomb a %ld %c, 0xe9 %ld errno %d, NULL %ld\n", (long)wcrtomb(out, L'a', &st), out[0],
           (long)wcrtomb(out, 0xe9, &st), errno, (long)wcrtomb(NULL, 0xe9, &st));
    wchar_t ws[8];
    printf("mbstowcs %ld %ld wcswidth %d %d\n", (long)mbstowcs(ws, "abc", 8),
           (long)mbstowcs(NULL, "ab\xe9", 0), wcswidth(ws, 8), wcswidth(L"a\tb", 3));
    const wchar_t *src = ws;
    printf("wcstombs %ld wcsrtombs %ld %s wcslen %ld\n", (long)wcstombs(NULL, ws, 0),
           (long)wcsrtombs(out, &src, sizeof out, &st), out, (long)wcslen(ws));
    printf("stdin reading %d writing %d readable %d writable %d\n", __freading(stdin) != 0,
           __fwriting(stdin) != 0, __freadable(stdin) != 0, __fwritable(stdin) != 0);
    printf("stderr reading %d writing %d readable %d writable %d\n", __freading(stderr) != 0,
           __fwriting(stderr) != 0, __freadable(stderr) != 0, __fwritable(stderr) != 0);
    int *p = reallocarray(NULL, 4, sizeof(int));
    errno = 0;
    void *big = reallocarray(p, (size_t)-1 / 2, 4);
    printf("reallocarray %d overflow %d errno %d\n", p != NULL, big == NULL, errno);
    free(p);
    return 0;
}
