/*
 * time.h with a fixed clock: time() is always SEAR_FIXED_TIME (2023-11-14
 * 22:13:20 UTC), the process clock is 0, sleeping returns at once, and the
 * local time zone is UTC. Calendar conversions (gmtime, mktime, strftime)
 * are exact.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define SEAR_FIXED_TIME 1700000000

time_t time(time_t *out) {
  if (out != NULL)
    *out = SEAR_FIXED_TIME;
  return SEAR_FIXED_TIME;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
  ts->tv_sec = clock == CLOCK_REALTIME ? SEAR_FIXED_TIME : 0;
  ts->tv_nsec = 0;
  return 0;
}

/* Setting the clock fails as for an unprivileged process: the clock is fixed
 * (coreutils' date -s reaches this through gnulib's settime). */
int clock_settime(clockid_t clock, const struct timespec *ts) {
  (void)clock;
  (void)ts;
  errno = EPERM;
  return -1;
}

int settimeofday(const struct timeval *tv, const struct timezone *tz) {
  (void)tv;
  (void)tz;
  errno = EPERM;
  return -1;
}

int clock_getres(clockid_t clock, struct timespec *ts) {
  (void)clock;
  if (ts != NULL) {
    ts->tv_sec = 0;
    ts->tv_nsec = 1;
  }
  return 0;
}

int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  tv->tv_sec = SEAR_FIXED_TIME;
  tv->tv_usec = 0;
  return 0;
}

clock_t clock(void) { return 0; }

unsigned sleep(unsigned seconds) {
  (void)seconds;
  return 0;
}

int usleep(useconds_t usec) {
  (void)usec;
  return 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem) {
  (void)req;
  if (rem != NULL)
    rem->tv_sec = rem->tv_nsec = 0;
  return 0;
}

double difftime(time_t a, time_t b) { return (double)(a - b); }

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static long long days_from_civil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (long long)doe - 719468;
}

struct tm *gmtime_r(const time_t *t, struct tm *tm) {
  long long secs = *t;
  long long days = secs / 86400, rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    days--;
  }
  tm->tm_hour = (int)(rem / 3600);
  tm->tm_min = (int)(rem % 3600 / 60);
  tm->tm_sec = (int)(rem % 60);
  tm->tm_wday = (int)((days % 7 + 11) % 7); /* 1970-01-01 was a Thursday */
  long long z = days + 719468;
  long long era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long long y = (long long)yoe + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  unsigned d = doy - (153 * mp + 2) / 5 + 1;
  unsigned m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  tm->tm_year = (int)(y - 1900);
  tm->tm_mon = (int)m - 1;
  tm->tm_mday = (int)d;
  tm->tm_yday = (int)(days - days_from_civil(y, 1, 1));
  tm->tm_isdst = 0;
  tm->tm_gmtoff = 0;
  tm->tm_zone = "UTC";
  return tm;
}

struct tm *gmtime(const time_t *t) {
  static struct tm tm;
  return gmtime_r(t, &tm);
}

struct tm *localtime_r(const time_t *t, struct tm *tm) { return gmtime_r(t, tm); }

struct tm *localtime(const time_t *t) { return gmtime(t); }

time_t timegm(struct tm *tm) {
  long long y = (long long)tm->tm_year + 1900;
  long long mon = tm->tm_mon;
  y += mon / 12;
  mon %= 12;
  if (mon < 0) {
    mon += 12;
    y--;
  }
  long long days = days_from_civil(y, (unsigned)mon + 1, 1) + tm->tm_mday - 1;
  time_t t = (time_t)(days * 86400 + (long long)tm->tm_hour * 3600 + tm->tm_min * 60 + tm->tm_sec);
  gmtime_r(&t, tm);
  return t;
}

time_t mktime(struct tm *tm) { return timegm(tm); }

char *tzname[2] = {"UTC", "UTC"};
long timezone;
int daylight;
void tzset(void) {}

static const char *const day_names[] = {"Sunday", "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday"};
static const char *const month_names[] = {"January", "February", "March", "April",
                                          "May", "June", "July", "August",
                                          "September", "October", "November", "December"};

static size_t append(char *out, size_t max, size_t n, const char *s) {
  for (; *s != '\0'; s++, n++)
    if (n < max)
      out[n] = *s;
  return n;
}

size_t strftime(char *out, size_t max, const char *fmt, const struct tm *tm) {
  size_t n = 0;
  char tmp[64];
  for (const char *f = fmt; *f != '\0'; f++) {
    if (*f != '%') {
      if (n < max)
        out[n] = *f;
      n++;
      continue;
    }
    f++;
    while (*f == 'E' || *f == 'O' || *f == '-' || *f == '_' || *f == '0' || *f == '^')
      f++;
    tmp[0] = '\0';
    int wday = tm->tm_wday >= 0 && tm->tm_wday < 7 ? tm->tm_wday : 0;
    int mon = tm->tm_mon >= 0 && tm->tm_mon < 12 ? tm->tm_mon : 0;
    long long year = (long long)tm->tm_year + 1900;
    switch (*f) {
    case 'a': snprintf(tmp, sizeof tmp, "%.3s", day_names[wday]); break;
    case 'A': snprintf(tmp, sizeof tmp, "%s", day_names[wday]); break;
    case 'b':
    case 'h': snprintf(tmp, sizeof tmp, "%.3s", month_names[mon]); break;
    case 'B': snprintf(tmp, sizeof tmp, "%s", month_names[mon]); break;
    case 'c':
      snprintf(tmp, sizeof tmp, "%.3s %.3s %2d %02d:%02d:%02d %lld", day_names[wday],
               month_names[mon], tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec, year);
      break;
    case 'C': snprintf(tmp, sizeof tmp, "%02lld", year / 100); break;
    case 'd': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mday); break;
    case 'D':
      snprintf(tmp, sizeof tmp, "%02d/%02d/%02lld", tm->tm_mon + 1, tm->tm_mday, year % 100);
      break;
    case 'e': snprintf(tmp, sizeof tmp, "%2d", tm->tm_mday); break;
    case 'F': snprintf(tmp, sizeof tmp, "%lld-%02d-%02d", year, tm->tm_mon + 1, tm->tm_mday); break;
    case 'H': snprintf(tmp, sizeof tmp, "%02d", tm->tm_hour); break;
    case 'I': snprintf(tmp, sizeof tmp, "%02d", tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12); break;
    case 'j': snprintf(tmp, sizeof tmp, "%03d", tm->tm_yday + 1); break;
    case 'm': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mon + 1); break;
    case 'M': snprintf(tmp, sizeof tmp, "%02d", tm->tm_min); break;
    case 'n': snprintf(tmp, sizeof tmp, "\n"); break;
    case 'p': snprintf(tmp, sizeof tmp, "%s", tm->tm_hour < 12 ? "AM" : "PM"); break;
    case 'r':
      snprintf(tmp, sizeof tmp, "%02d:%02d:%02d %s", tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12,
               tm->tm_min, tm->tm_sec, tm->tm_hour < 12 ? "AM" : "PM");
      break;
    case 'R': snprintf(tmp, sizeof tmp, "%02d:%02d", tm->tm_hour, tm->tm_min); break;
    case 's': {
      struct tm copy = *tm;
      snprintf(tmp, sizeof tmp, "%lld", (long long)timegm(&copy));
      break;
    }
    case 'S': snprintf(tmp, sizeof tmp, "%02d", tm->tm_sec); break;
    case 't': snprintf(tmp, sizeof tmp, "\t"); break;
    case 'T':
    case 'X': snprintf(tmp, sizeof tmp, "%02d:%02d:%02d", tm->tm_hour, tm->tm_min, tm->tm_sec); break;
    case 'u': snprintf(tmp, sizeof tmp, "%d", wday == 0 ? 7 : wday); break;
    case 'w': snprintf(tmp, sizeof tmp, "%d", wday); break;
    case 'x':
      snprintf(tmp, sizeof tmp, "%02d/%02d/%02lld", tm->tm_mon + 1, tm->tm_mday, year % 100);
      break;
    case 'y': snprintf(tmp, sizeof tmp, "%02lld", year % 100); break;
    case 'Y': snprintf(tmp, sizeof tmp, "%lld", year); break;
    case 'z': snprintf(tmp, sizeof tmp, "+0000"); break;
    case 'Z': snprintf(tmp, sizeof tmp, "UTC"); break;
    case '%': snprintf(tmp, sizeof tmp, "%%"); break;
    case '\0': f--; break;
    default: snprintf(tmp, sizeof tmp, "%%%c", *f); break;
    }
    n = append(out, max, n, tmp);
  }
  if (n >= max)
    return 0;
  out[n] = '\0';
  return n;
}

char *asctime_r(const struct tm *tm, char *buf) {
  int wday = tm->tm_wday >= 0 && tm->tm_wday < 7 ? tm->tm_wday : 0;
  int mon = tm->tm_mon >= 0 && tm->tm_mon < 12 ? tm->tm_mon : 0;
  snprintf(buf, 26, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n", day_names[wday], month_names[mon],
           tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec, 1900 + tm->tm_year);
  return buf;
}

char *asctime(const struct tm *tm) {
  static char buf[32];
  return asctime_r(tm, buf);
}

char *ctime_r(const time_t *t, char *buf) {
  struct tm tm;
  return asctime_r(localtime_r(t, &tm), buf);
}

char *ctime(const time_t *t) {
  struct tm tm;
  return asctime(localtime_r(t, &tm));
}
