// Time and locale stubs: a fixed clock, UTC, exact calendar conversions, the C locale.
// expect-completed: 1
// expect-test-stdout: 2023-11-14 22:13:20 Tue 318\nC\n.\n
// expect-replay: strict
#include <locale.h>
#include <stdio.h>
#include <time.h>

int main(void) {
    time_t t = 1700000000;
    struct tm tm;
    char buf[64];
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %j", &tm);
    puts(buf);
    puts(setlocale(LC_ALL, ""));
    puts(localeconv()->decimal_point);
    return time(NULL) > 0 ? 0 : 1;
}
