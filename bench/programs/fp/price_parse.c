// Float bench (issue 34): a small mixed fixed-point/float parser. A price "W.FF" (1 to 5
// digits, a point, exactly 2 digits) is read from a symbolic buffer of SIZE bytes into
// fixed-point cents (an int), then into a float, cents / 100.0f; prices above 99999 are
// rejected. The float is later converted back to cents with rounding,
// (int)(value * 100 + 0.5), and the program asserts both agree. They do up to 65535.99, but from 65536 on a float's spacing (1/128) is
// coarser than a cent: "65536.02" comes back as 6553603 cents. Needs a 5-digit price >= 65536.
// Reasoning: per position digit / not digit, the point, the two fraction digits and the end
// fork: the rejected shapes; the accepted shapes (1 to 5 integer digits, a terminator or
// not) pass the round trip, and with 5 digits also fail it: 41 completed paths and 1 error.
// SIZE is the buffer length (8 fits "65536.02").
#include "../bench.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int main(void) {
    char buf[SIZE];
    klee_make_symbolic(buf, sizeof buf, "buf");
    int i = 0, whole = 0, cents;
    while (i < SIZE && is_digit(buf[i])) {
        if (i == 5)
            return 1; // more than 5 integer digits
        whole = whole * 10 + (buf[i] - '0');
        i++;
    }
    if (i == 0 || i + 3 > SIZE || buf[i] != '.')
        return 2;
    if (!is_digit(buf[i + 1]) || !is_digit(buf[i + 2]))
        return 3;
    int frac = (buf[i + 1] - '0') * 10 + (buf[i + 2] - '0');
    if (i + 3 < SIZE && buf[i + 3] != '\0')
        return 4;
    cents = whole * 100 + frac;
    float value = (float)cents / 100.0f;
    if (value > 99999.0f)
        return 5;
    int back = (int)(value * 100.0f + 0.5f);
    klee_assert(back == cents);
    return 0;
}
