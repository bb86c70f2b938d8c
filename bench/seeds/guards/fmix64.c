/* MurmurHash3's 64-bit finaliser of an 8-byte key, behind which a bug hides (guarded.h). */
#define GUARD guard_fmix64
#define KEYLEN 8
#define EXPECTED 0x98c8a1bff76b2191ull
#include "guarded.h"
