/*
 * getopt, getopt_long and getopt_long_only with GNU semantics: arguments are
 * permuted so that non-options end up after the options (unless the option
 * string starts with '+' or POSIXLY_CORRECT is set; '-' returns non-options
 * as the argument of option 1), "--" ends option parsing, a leading ':'
 * reports missing arguments as ':' and silences messages. Diagnostics use
 * glibc's wording, so native replays print the same text.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *optarg;
int optind = 1;
int opterr = 1;
int optopt = '?';

enum ordering { PERMUTE, REQUIRE_ORDER, RETURN_IN_ORDER };

static struct {
  int initialized;
  char *nextchar;
  int first_nonopt;
  int last_nonopt;
  enum ordering ordering;
} st;

static int is_nonoption(const char *s) { return s[0] != '-' || s[1] == '\0'; }

static void reverse(char **argv, int from, int to) {
  for (to--; from < to; from++, to--) {
    char *t = argv[from];
    argv[from] = argv[to];
    argv[to] = t;
  }
}

/* Moves the skipped non-options [first_nonopt, last_nonopt) after the
 * options [last_nonopt, optind) just processed, keeping both orders. */
static void exchange(char **argv) {
  int a = st.first_nonopt, b = st.last_nonopt, c = optind;
  reverse(argv, a, b);
  reverse(argv, b, c);
  reverse(argv, a, c);
  st.first_nonopt += c - b;
  st.last_nonopt = c;
}

/* Whether two options matched by the same prefix make it ambiguous. */
static int conflicts(const struct option *a, const struct option *b, int long_only) {
  return long_only || a->has_arg != b->has_arg || a->flag != b->flag || a->val != b->val;
}

static int long_option(int argc, char **argv, const struct option *longopts, int *longind,
                       const char *prefix, int print_errors, int colon, int long_only) {
  char *name = st.nextchar;
  char *end = name;
  while (*end != '\0' && *end != '=')
    end++;
  size_t len = (size_t)(end - name);
  const struct option *found = NULL;
  int index = -1, ambiguous = 0;
  /* An exact match wins; otherwise a unique prefix, or prefixes of options that all do
   * the same (in getopt_long_only mode, any second prefix is ambiguous). */
  for (int i = 0; longopts[i].name != NULL; i++) {
    if (strncmp(longopts[i].name, name, len) == 0 && strlen(longopts[i].name) == len) {
      found = &longopts[i];
      index = i;
      break;
    }
  }
  if (found == NULL) {
    for (int i = 0; longopts[i].name != NULL; i++) {
      const struct option *o = &longopts[i];
      if (strncmp(o->name, name, len) != 0)
        continue;
      if (found == NULL) {
        found = o;
        index = i;
      } else if (conflicts(found, o, long_only)) {
        ambiguous = 1;
      }
    }
  }
  if (ambiguous) {
    if (print_errors) {
      /* glibc's wording: the first match, then every match that conflicts with it. */
      fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:", argv[0], prefix, name);
      for (int i = 0; longopts[i].name != NULL; i++)
        if (strncmp(longopts[i].name, name, len) == 0 &&
            (i == index || conflicts(found, &longopts[i], long_only)))
          fprintf(stderr, " '%s%s'", prefix, longopts[i].name);
      fputc('\n', stderr);
    }
    st.nextchar = NULL;
    optind++;
    optopt = 0;
    return '?';
  }
  if (found == NULL)
    return -2; /* not a long option */
  optind++;
  st.nextchar = NULL;
  if (*end == '=') {
    if (found->has_arg == no_argument) {
      if (print_errors)
        fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n", argv[0], prefix, found->name);
      optopt = found->val;
      return '?';
    }
    optarg = end + 1;
  } else if (found->has_arg == required_argument) {
    if (optind < argc) {
      optarg = argv[optind++];
    } else {
      if (print_errors)
        fprintf(stderr, "%s: option '%s%s' requires an argument\n", argv[0], prefix, found->name);
      optopt = found->val;
      return colon ? ':' : '?';
    }
  } else {
    optarg = NULL;
  }
  if (longind != NULL)
    *longind = index;
  if (found->flag != NULL) {
    *found->flag = found->val;
    return 0;
  }
  return found->val;
}

static int parse(int argc, char **argv, const char *optstring, const struct option *longopts,
                 int *longind, int long_only) {
  if (argc < 1)
    return -1;
  optarg = NULL;
  if (optind == 0 || !st.initialized) {
    if (optind == 0)
      optind = 1;
    st.first_nonopt = st.last_nonopt = optind;
    st.nextchar = NULL;
    st.initialized = 1;
  }
  if (optstring[0] == '-') {
    st.ordering = RETURN_IN_ORDER;
    optstring++;
  } else if (optstring[0] == '+') {
    st.ordering = REQUIRE_ORDER;
    optstring++;
  } else {
    st.ordering = getenv("POSIXLY_CORRECT") != NULL ? REQUIRE_ORDER : PERMUTE;
  }
  int colon = optstring[0] == ':';
  int print_errors = opterr && !colon;

  if (st.nextchar == NULL || *st.nextchar == '\0') {
    if (st.last_nonopt > optind)
      st.last_nonopt = optind;
    if (st.first_nonopt > optind)
      st.first_nonopt = optind;
    if (st.ordering == PERMUTE) {
      if (st.first_nonopt != st.last_nonopt && st.last_nonopt != optind)
        exchange(argv);
      else if (st.last_nonopt != optind)
        st.first_nonopt = optind;
      while (optind < argc && is_nonoption(argv[optind]))
        optind++;
      st.last_nonopt = optind;
    }
    if (optind != argc && strcmp(argv[optind], "--") == 0) {
      optind++;
      if (st.first_nonopt != st.last_nonopt && st.last_nonopt != optind)
        exchange(argv);
      else if (st.first_nonopt == st.last_nonopt)
        st.first_nonopt = optind;
      st.last_nonopt = argc;
      optind = argc;
    }
    if (optind == argc) {
      if (st.first_nonopt != st.last_nonopt)
        optind = st.first_nonopt;
      return -1;
    }
    if (is_nonoption(argv[optind])) {
      if (st.ordering == REQUIRE_ORDER)
        return -1;
      optarg = argv[optind++];
      return 1;
    }
    if (longopts != NULL && argv[optind][1] == '-') {
      st.nextchar = argv[optind] + 2;
      int r = long_option(argc, argv, longopts, longind, "--", print_errors, colon, long_only);
      if (r == -2) {
        if (print_errors)
          fprintf(stderr, "%s: unrecognized option '--%s'\n", argv[0], st.nextchar);
        st.nextchar = NULL;
        optind++;
        optopt = 0;
        return '?';
      }
      return r;
    }
    if (longopts != NULL && long_only &&
        (argv[optind][2] != '\0' || strchr(optstring, argv[optind][1]) == NULL)) {
      st.nextchar = argv[optind] + 1;
      int r = long_option(argc, argv, longopts, longind, "-", print_errors, colon, long_only);
      if (r != -2)
        return r;
      if (strchr(optstring, *st.nextchar) == NULL) {
        if (print_errors)
          fprintf(stderr, "%s: unrecognized option '-%s'\n", argv[0], st.nextchar);
        st.nextchar = NULL;
        optind++;
        optopt = 0;
        return '?';
      }
    }
    st.nextchar = argv[optind] + 1;
  }

  char c = *st.nextchar++;
  const char *spec = strchr(optstring, c);
  if (*st.nextchar == '\0')
    optind++;
  if (spec == NULL || c == ':' || c == ';') {
    if (print_errors)
      fprintf(stderr, "%s: invalid option -- '%c'\n", argv[0], c);
    optopt = c;
    return '?';
  }
  if (spec[1] == ':') {
    if (spec[2] == ':') {
      if (*st.nextchar != '\0') {
        optarg = st.nextchar;
        optind++;
      } else {
        optarg = NULL;
      }
    } else if (*st.nextchar != '\0') {
      optarg = st.nextchar;
      optind++;
    } else if (optind == argc) {
      if (print_errors)
        fprintf(stderr, "%s: option requires an argument -- '%c'\n", argv[0], c);
      optopt = c;
      c = colon ? ':' : '?';
    } else {
      optarg = argv[optind++];
    }
    st.nextchar = NULL;
  }
  return c;
}

int getopt(int argc, char *const argv[], const char *optstring) {
  return parse(argc, (char **)argv, optstring, NULL, NULL, 0);
}

int getopt_long(int argc, char *const argv[], const char *optstring,
                const struct option *longopts, int *longind) {
  return parse(argc, (char **)argv, optstring, longopts, longind, 0);
}

int getopt_long_only(int argc, char *const argv[], const char *optstring,
                     const struct option *longopts, int *longind) {
  return parse(argc, (char **)argv, optstring, longopts, longind, 1);
}
