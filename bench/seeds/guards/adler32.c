/* An Adler-32 checksum of a 16-byte key, behind which a bug hides (guarded.h). */
#define GUARD guard_adler32
#define KEYLEN 16
#define EXPECTED 0x35b90617ull
#include "guarded.h"
