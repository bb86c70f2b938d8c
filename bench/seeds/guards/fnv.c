/* A 64-bit FNV-style hash (multiply, shift-xor) of an 8-byte key, behind which a bug hides (guarded.h). */
#define GUARD guard_fnv
#define KEYLEN 8
#define EXPECTED 0x8515b74ed670ac2eull
#include "guarded.h"
