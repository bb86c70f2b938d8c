/*
 * Multibyte and wide characters in the "C" locale, as glibc has it: the character set is
 * ASCII, so a byte below 0x80 is the wide character of the same value and any other byte is
 * an invalid sequence (EILSEQ); MB_CUR_MAX is 1; the wide classes are the ASCII ctype
 * classes (read from the same tables, so a symbolic character costs one range test and one
 * table read); wcwidth is 1 for printable ASCII, 0 for L'\0' and -1 otherwise.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

size_t __ctype_get_mb_cur_max(void) { return 1; }

int mbsinit(const mbstate_t *ps) { return ps == NULL || ps->__count == 0; }

size_t mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps) {
  (void)ps;
  if (s == NULL)
    return 0;
  if (n == 0)
    return (size_t)-2;
  unsigned char c = (unsigned char)*s;
  if (c >= 0x80) {
    errno = EILSEQ;
    return (size_t)-1;
  }
  if (pwc != NULL)
    *pwc = c;
  return c != 0;
}

size_t mbrlen(const char *s, size_t n, mbstate_t *ps) { return mbrtowc(NULL, s, n, ps); }

int mbtowc(wchar_t *pwc, const char *s, size_t n) {
  if (s == NULL)
    return 0;
  if (n == 0)
    return -1;
  size_t r = mbrtowc(pwc, s, n, NULL);
  return r == (size_t)-1 ? -1 : (int)r;
}

int mblen(const char *s, size_t n) { return mbtowc(NULL, s, n); }

wint_t btowc(int c) { return (unsigned)c < 0x80u ? (wint_t)c : WEOF; }

int wctob(wint_t wc) { return wc < 0x80u ? (int)wc : EOF; }

size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps) {
  (void)ps;
  if (s == NULL)
    return 1;
  if ((unsigned)wc >= 0x80u) {
    errno = EILSEQ;
    return (size_t)-1;
  }
  *s = (char)wc;
  return 1;
}

int wctomb(char *s, wchar_t wc) {
  if (s == NULL)
    return 0;
  size_t r = wcrtomb(s, wc, NULL);
  return r == (size_t)-1 ? -1 : (int)r;
}

size_t mbsnrtowcs(wchar_t *dst, const char **src, size_t nms, size_t len, mbstate_t *ps) {
  (void)ps;
  const char *s = *src;
  size_t i = 0;
  for (; nms > 0 && (dst == NULL || i < len); nms--, s++) {
    unsigned char c = (unsigned char)*s;
    if (c >= 0x80) {
      errno = EILSEQ;
      *src = dst != NULL ? s : *src;
      return (size_t)-1;
    }
    if (dst != NULL)
      dst[i] = c;
    if (c == 0) {
      if (dst != NULL)
        *src = NULL;
      return i;
    }
    i++;
  }
  if (dst != NULL)
    *src = s;
  return i;
}

size_t mbsrtowcs(wchar_t *dst, const char **src, size_t len, mbstate_t *ps) {
  return mbsnrtowcs(dst, src, (size_t)-1, len, ps);
}

size_t mbstowcs(wchar_t *dst, const char *src, size_t len) {
  return mbsrtowcs(dst, &src, len, NULL);
}

size_t wcsnrtombs(char *dst, const wchar_t **src, size_t nwc, size_t len, mbstate_t *ps) {
  (void)ps;
  const wchar_t *s = *src;
  size_t i = 0;
  for (; nwc > 0 && (dst == NULL || i < len); nwc--, s++) {
    if ((unsigned)*s >= 0x80u) {
      errno = EILSEQ;
      *src = dst != NULL ? s : *src;
      return (size_t)-1;
    }
    if (dst != NULL)
      dst[i] = (char)*s;
    if (*s == 0) {
      if (dst != NULL)
        *src = NULL;
      return i;
    }
    i++;
  }
  if (dst != NULL)
    *src = s;
  return i;
}

size_t wcsrtombs(char *dst, const wchar_t **src, size_t len, mbstate_t *ps) {
  return wcsnrtombs(dst, src, (size_t)-1, len, ps);
}

size_t wcstombs(char *dst, const wchar_t *src, size_t len) {
  return wcsrtombs(dst, &src, len, NULL);
}

/* The wide classes: ASCII characters by the ctype tables, nothing else. */
#define WCLASS(name, narrow)                                                                 \
  int name(wint_t wc) { return wc < 0x80u ? narrow((int)wc) != 0 : 0; }
WCLASS(iswalnum, isalnum)
WCLASS(iswalpha, isalpha)
WCLASS(iswblank, isblank)
WCLASS(iswcntrl, iscntrl)
WCLASS(iswdigit, isdigit)
WCLASS(iswgraph, isgraph)
WCLASS(iswlower, islower)
WCLASS(iswprint, isprint)
WCLASS(iswpunct, ispunct)
WCLASS(iswspace, isspace)
WCLASS(iswupper, isupper)
WCLASS(iswxdigit, isxdigit)

wint_t towlower(wint_t wc) { return wc < 0x80u ? (wint_t)tolower((int)wc) : wc; }
wint_t towupper(wint_t wc) { return wc < 0x80u ? (wint_t)toupper((int)wc) : wc; }

static const char *const class_names[] = {"alnum", "alpha", "blank", "cntrl",
                                          "digit", "graph", "lower", "print",
                                          "punct", "space", "upper", "xdigit"};

wctype_t wctype(const char *name) {
  for (size_t i = 0; i < sizeof class_names / sizeof class_names[0]; i++)
    if (strcmp(name, class_names[i]) == 0)
      return (wctype_t)(i + 1);
  return 0;
}

int iswctype(wint_t wc, wctype_t desc) {
  switch (desc) {
  case 1: return iswalnum(wc);
  case 2: return iswalpha(wc);
  case 3: return iswblank(wc);
  case 4: return iswcntrl(wc);
  case 5: return iswdigit(wc);
  case 6: return iswgraph(wc);
  case 7: return iswlower(wc);
  case 8: return iswprint(wc);
  case 9: return iswpunct(wc);
  case 10: return iswspace(wc);
  case 11: return iswupper(wc);
  case 12: return iswxdigit(wc);
  default: return 0;
  }
}

int wcwidth(wchar_t wc) {
  if (wc == 0)
    return 0;
  return iswprint((wint_t)wc) ? 1 : -1;
}

int wcswidth(const wchar_t *s, size_t n) {
  int width = 0;
  for (; n > 0 && *s != 0; n--, s++) {
    int w = wcwidth(*s);
    if (w < 0)
      return -1;
    width += w;
  }
  return width;
}

size_t wcslen(const wchar_t *s) {
  size_t n = 0;
  while (s[n] != 0)
    n++;
  return n;
}
