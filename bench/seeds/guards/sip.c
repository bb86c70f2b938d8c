/* Two SipHash rounds over an 8-byte key, behind which a bug hides (guarded.h). */
#define GUARD guard_sip
#define KEYLEN 8
#define EXPECTED 0x71a35ad3d2452920ull
#include "guarded.h"
