/*
 * fnmatch (POSIX, with glibc's FNM_CASEFOLD and FNM_LEADING_DIR) in the C locale: `*`, `?`,
 * bracket expressions with ranges, negation (`!` or `^`) and character classes
 * (`[:alpha:]`, ...), backslash escapes unless FNM_NOESCAPE, FNM_PATHNAME (wildcards do not
 * match `/`) and FNM_PERIOD (a leading period must be matched explicitly). Byte at a time:
 * a symbolic name forks once per comparison that decides the match.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <string.h>

static int fold(int c, int flags) {
  return (flags & FNM_CASEFOLD) ? tolower(c) : c;
}

static int in_class(const char *name, size_t len, int c) {
  static const struct {
    const char *name;
    int (*test)(int);
  } classes[] = {{"alnum", isalnum}, {"alpha", isalpha}, {"blank", isblank},
                 {"cntrl", iscntrl}, {"digit", isdigit}, {"graph", isgraph},
                 {"lower", islower}, {"print", isprint}, {"punct", ispunct},
                 {"space", isspace}, {"upper", isupper}, {"xdigit", isxdigit}};
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
    if (strlen(classes[i].name) == len && strncmp(classes[i].name, name, len) == 0)
      return classes[i].test(c) != 0;
  return 0;
}

/* Matches c against the bracket expression at p (just after `[`). Returns a pointer after
 * the closing `]` and sets *matched, or NULL when the expression is not closed (then `[` is
 * an ordinary character). */
static const char *bracket(const char *p, int c, int flags, int *matched) {
  int negate = *p == '!' || *p == '^';
  if (negate)
    p++;
  int found = 0;
  int first = 1;
  c = fold(c, flags);
  while (first || *p != ']') {
    first = 0;
    if (*p == '\0')
      return NULL;
    if (*p == '[' && p[1] == ':') {
      const char *end = strstr(p + 2, ":]");
      if (end == NULL)
        return NULL;
      found |= in_class(p + 2, (size_t)(end - (p + 2)), c);
      p = end + 2;
      continue;
    }
    int lo = (unsigned char)*p;
    if (lo == '\\' && !(flags & FNM_NOESCAPE) && p[1] != '\0')
      lo = (unsigned char)*++p;
    p++;
    int hi = lo;
    if (*p == '-' && p[1] != ']' && p[1] != '\0') {
      hi = (unsigned char)p[1];
      if (hi == '\\' && !(flags & FNM_NOESCAPE) && p[2] != '\0')
        hi = (unsigned char)*++p;
      p += 2;
    }
    if (flags & FNM_CASEFOLD) {
      found |= (tolower(lo) <= c && c <= tolower(hi)) || (lo <= c && c <= hi) ||
               (toupper(lo) <= toupper(c) && toupper(c) <= toupper(hi));
    } else {
      found |= lo <= c && c <= hi;
    }
  }
  *matched = found != negate;
  return p + 1;
}

/* A leading period of the name (or, with FNM_PATHNAME, of a component) at s. */
static int leading_period(const char *s, const char *start, int flags) {
  return (flags & FNM_PERIOD) && *s == '.' &&
         (s == start || ((flags & FNM_PATHNAME) && s[-1] == '/'));
}

static int match(const char *p, const char *s, const char *start, int flags) {
  for (;;) {
    int c = (unsigned char)*p++;
    switch (c) {
    case '\0':
      if (*s == '\0')
        return 0;
      return ((flags & FNM_LEADING_DIR) && *s == '/') ? 0 : FNM_NOMATCH;
    case '?':
      if (*s == '\0' || ((flags & FNM_PATHNAME) && *s == '/') ||
          leading_period(s, start, flags))
        return FNM_NOMATCH;
      s++;
      break;
    case '*':
      while (*p == '*')
        p++;
      if (leading_period(s, start, flags))
        return FNM_NOMATCH;
      if (*p == '\0') {
        if (!(flags & FNM_PATHNAME) || (flags & FNM_LEADING_DIR))
          return 0;
        return strchr(s, '/') == NULL ? 0 : FNM_NOMATCH;
      }
      for (;; s++) {
        if (match(p, s, start, flags) == 0)
          return 0;
        if (*s == '\0' || ((flags & FNM_PATHNAME) && *s == '/'))
          return FNM_NOMATCH;
      }
    case '[': {
      if (*s == '\0' || ((flags & FNM_PATHNAME) && *s == '/') ||
          leading_period(s, start, flags))
        return FNM_NOMATCH;
      int matched = 0;
      const char *after = bracket(p, (unsigned char)*s, flags, &matched);
      if (after == NULL) { /* an unclosed `[` is itself */
        if (*s != '[')
          return FNM_NOMATCH;
      } else {
        if (!matched)
          return FNM_NOMATCH;
        p = after;
      }
      s++;
      break;
    }
    case '\\':
      if (!(flags & FNM_NOESCAPE) && *p != '\0')
        c = (unsigned char)*p++;
      /* fall through */
    default:
      if (fold(c, flags) != fold((unsigned char)*s, flags))
        return FNM_NOMATCH;
      s++;
      break;
    }
  }
}

int fnmatch(const char *pattern, const char *string, int flags) {
  return match(pattern, string, string, flags);
}
