/* A 128-bit product of two 64-bit factors equal to a 128-bit semiprime (factoring), behind which a bug hides (guarded.h). */
#define GUARD guard_factor
#define KEYLEN 16
#define EXPECTED 0x1ull
#include "guarded.h"
