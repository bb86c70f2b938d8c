/*
 * Locale stubs: only the "C" locale exists. setlocale accepts "", "C" and
 * "POSIX" (all meaning C) and rejects others; gettext and friends return
 * their message unchanged.
 */
#include <langinfo.h>
#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* libintl.h turns these into macros when optimising. */
#undef gettext
#undef dgettext
#undef dcgettext
#undef ngettext
#undef dngettext
#undef dcngettext

char *setlocale(int category, const char *name) {
  (void)category;
  if (name == NULL || name[0] == '\0' || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0)
    return "C";
  return NULL;
}

static struct lconv c_lconv = {
    ".", "", "", "", "", "", "", "", "", "",
    CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
    CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
};

struct lconv *localeconv(void) { return &c_lconv; }

char *nl_langinfo(nl_item item) {
  if (item == CODESET)
    return "ANSI_X3.4-1968";
  return "";
}

char *gettext(const char *msgid) { return (char *)msgid; }
char *dgettext(const char *domain, const char *msgid) {
  (void)domain;
  return (char *)msgid;
}
char *dcgettext(const char *domain, const char *msgid, int category) {
  (void)domain;
  (void)category;
  return (char *)msgid;
}
char *ngettext(const char *one, const char *many, unsigned long n) {
  return (char *)(n == 1 ? one : many);
}
char *dngettext(const char *domain, const char *one, const char *many, unsigned long n) {
  (void)domain;
  return (char *)(n == 1 ? one : many);
}
char *dcngettext(const char *domain, const char *one, const char *many, unsigned long n,
                 int category) {
  (void)domain;
  (void)category;
  return (char *)(n == 1 ? one : many);
}
char *__dcgettext(const char *domain, const char *msgid, int category) {
  return dcgettext(domain, msgid, category);
}
char *__dgettext(const char *domain, const char *msgid) { return dgettext(domain, msgid); }
char *textdomain(const char *domain) { return (char *)(domain != NULL ? domain : "messages"); }
char *bindtextdomain(const char *domain, const char *dir) {
  (void)domain;
  return (char *)dir;
}
char *bind_textdomain_codeset(const char *domain, const char *codeset) {
  (void)domain;
  return (char *)codeset;
}

/* locale_t objects: only the C locale exists, so newlocale gives one shared object for "C",
 * "POSIX" and "" (as setlocale), and the *_l functions are their C-locale versions. */
static struct __locale_struct c_locale_object;

/* glibc's ctype.h expands isalpha_l(c, l) & co. to reads of l->__ctype_b (libc++'s
 * ctype<char> facets do), so the object points at the runtime's C-locale tables. */
static locale_t c_locale(void) {
  c_locale_object.__ctype_b = *__ctype_b_loc();
  c_locale_object.__ctype_tolower = *__ctype_tolower_loc();
  c_locale_object.__ctype_toupper = *__ctype_toupper_loc();
  return &c_locale_object;
}

locale_t newlocale(int mask, const char *name, locale_t base) {
  (void)mask;
  (void)base;
  if (name[0] == '\0' || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0)
    return c_locale();
  errno = ENOENT;
  return (locale_t)0;
}
locale_t duplocale(locale_t l) { return l == LC_GLOBAL_LOCALE ? c_locale() : l; }
void freelocale(locale_t l) { (void)l; }
locale_t uselocale(locale_t l) {
  (void)l;
  return LC_GLOBAL_LOCALE;
}

double strtod_l(const char *s, char **end, locale_t l) {
  (void)l;
  return strtod(s, end);
}
float strtof_l(const char *s, char **end, locale_t l) {
  (void)l;
  return strtof(s, end);
}
long double strtold_l(const char *s, char **end, locale_t l) {
  (void)l;
  return strtold(s, end);
}
