// The math library's transcendental functions on concrete arguments give glibc's results
// bit for bit (the native replay computes the same and must exit with the same status):
// sin, cos, exp, log, pow and their float variants. Before, they were unsupported
// external functions (an exec error at the first call).
// Reasoning: every value is concrete, so there is one path; the exit status folds the
// comparisons with the expected results (all hold natively): 0.
// expect-completed: 1
// expect-error-paths: 0
// expect-exits: 0
#include <math.h>

int main(void) {
    volatile double x = 0.5, y = 3.0;
    volatile float xf = 0.5f;
    int bad = 0;
    double s = sin(x), c = cos(x);
    bad |= !(s > 0.479 && s < 0.480);
    bad |= !(s * s + c * c > 0.999999 && s * s + c * c < 1.000001);
    bad |= exp(log(y)) < 2.999999 || exp(log(y)) > 3.000001;
    bad |= pow(2.0, y) != 8.0;
    bad |= !(sinf(xf) > 0.479f && sinf(xf) < 0.480f);
    bad |= powf(2.0f, 10.0f) != 1024.0f;
    bad |= (atan2(1.0, 1.0) * 4.0 < 3.14159 || atan2(1.0, 1.0) * 4.0 > 3.1416);
    return bad;
}
