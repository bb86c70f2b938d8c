/* A table-driven CRC-32 of an 8-byte key, behind which a bug hides (guarded.h). */
#define GUARD guard_crc32
#define KEYLEN 8
#define EXPECTED 0x2bd3f41eull
#include "guarded.h"
