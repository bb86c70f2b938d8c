/*
 * The *_l functions of POSIX 2008 and glibc for the only locale there is, C: each is its
 * function without the suffix (the locale argument is ignored). libc++'s locale facets
 * call them with the object of newlocale(LC_ALL_MASK, "C", 0). Also the message catalogs
 * of nl_types.h (no catalog exists: catopen fails as glibc's does for a missing one).
 */
#define __NO_CTYPE 1
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <nl_types.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>

#define CLASS_L(name)                                                                      \
  int name##_l(int c, locale_t l) {                                                        \
    (void)l;                                                                               \
    return name(c);                                                                        \
  }
CLASS_L(isalnum)
CLASS_L(isalpha)
CLASS_L(isblank)
CLASS_L(iscntrl)
CLASS_L(isdigit)
CLASS_L(isgraph)
CLASS_L(islower)
CLASS_L(isprint)
CLASS_L(ispunct)
CLASS_L(isspace)
CLASS_L(isupper)
CLASS_L(isxdigit)
CLASS_L(tolower)
CLASS_L(toupper)

#define WCLASS_L(name)                                                                     \
  int name##_l(wint_t c, locale_t l) {                                                     \
    (void)l;                                                                               \
    return name(c);                                                                        \
  }
WCLASS_L(iswalnum)
WCLASS_L(iswalpha)
WCLASS_L(iswblank)
WCLASS_L(iswcntrl)
WCLASS_L(iswdigit)
WCLASS_L(iswgraph)
WCLASS_L(iswlower)
WCLASS_L(iswprint)
WCLASS_L(iswpunct)
WCLASS_L(iswspace)
WCLASS_L(iswupper)
WCLASS_L(iswxdigit)

wint_t towlower_l(wint_t c, locale_t l) {
  (void)l;
  return towlower(c);
}
wint_t towupper_l(wint_t c, locale_t l) {
  (void)l;
  return towupper(c);
}
int __isalnum_l(int c, locale_t l) { return isalnum_l(c, l); }
int __tolower_l(int c, locale_t l) { return tolower_l(c, l); }
int __toupper_l(int c, locale_t l) { return toupper_l(c, l); }

long strtol_l(const char *s, char **end, int base, locale_t l) {
  (void)l;
  return strtol(s, end, base);
}
unsigned long strtoul_l(const char *s, char **end, int base, locale_t l) {
  (void)l;
  return strtoul(s, end, base);
}
long long strtoll_l(const char *s, char **end, int base, locale_t l) {
  (void)l;
  return strtoll(s, end, base);
}
unsigned long long strtoull_l(const char *s, char **end, int base, locale_t l) {
  (void)l;
  return strtoull(s, end, base);
}

int strcoll_l(const char *a, const char *b, locale_t l) {
  (void)l;
  return strcoll(a, b);
}
size_t strxfrm_l(char *dst, const char *src, size_t n, locale_t l) {
  (void)l;
  return strxfrm(dst, src, n);
}
int wcscoll_l(const wchar_t *a, const wchar_t *b, locale_t l) {
  (void)l;
  return wcscoll(a, b);
}
size_t wcsxfrm_l(wchar_t *dst, const wchar_t *src, size_t n, locale_t l) {
  (void)l;
  return wcsxfrm(dst, src, n);
}
size_t strftime_l(char *out, size_t max, const char *fmt, const struct tm *tm, locale_t l) {
  (void)l;
  return strftime(out, max, fmt, tm);
}

/* No message catalogs: catopen fails with ENOENT, catgets answers its default string. */
nl_catd catopen(const char *name, int flag) {
  (void)name;
  (void)flag;
  errno = ENOENT;
  return (nl_catd)-1;
}
char *catgets(nl_catd catalog, int set, int number, const char *message) {
  (void)set;
  (void)number;
  if (catalog == (nl_catd)-1)
    errno = EBADF;
  return (char *)message;
}
int catclose(nl_catd catalog) {
  (void)catalog;
  errno = EBADF;
  return -1;
}
