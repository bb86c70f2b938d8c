/*
 * ctype.h for the "C" locale (ASCII). glibc's macros read the classification
 * and case tables through __ctype_b_loc, __ctype_tolower_loc and
 * __ctype_toupper_loc, indexed by any value from -128 to 255; the functions
 * read the same tables, so a symbolic character is classified by one table
 * read (no fork) and only the program's own test of the result branches.
 */
#define __NO_CTYPE 1
#include <ctype.h>
#include <stdint.h>

#define UP(c) ((c) >= 'A' && (c) <= 'Z')
#define LO(c) ((c) >= 'a' && (c) <= 'z')
#define DI(c) ((c) >= '0' && (c) <= '9')
#define AL(c) (UP(c) || LO(c))
#define XD(c) (DI(c) || ((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F'))
#define SP(c) ((c) == ' ' || ((c) >= 9 && (c) <= 13))
#define CN(c) (((c) >= 0 && (c) < 32) || (c) == 127)
#define GR(c) ((c) > 32 && (c) < 127)

/* The class bits of byte value c (0..255); bytes >= 128 have none. */
#define CLASS(c)                                                               \
  ((unsigned short)((UP(c) ? _ISupper : 0) | (LO(c) ? _ISlower : 0) |          \
                    (AL(c) ? _ISalpha : 0) | (DI(c) ? _ISdigit : 0) |          \
                    (XD(c) ? _ISxdigit : 0) | (SP(c) ? _ISspace : 0) |         \
                    ((GR(c) || (c) == ' ') ? _ISprint : 0) |                   \
                    (GR(c) ? _ISgraph : 0) |                                   \
                    (((c) == ' ' || (c) == '\t') ? _ISblank : 0) |             \
                    (CN(c) ? _IScntrl : 0) |                                   \
                    ((GR(c) && !AL(c) && !DI(c)) ? _ISpunct : 0) |             \
                    ((AL(c) || DI(c)) ? _ISalnum : 0)))

/* Table entry i stands for the value i - 128; negative values classify and
 * convert like their unsigned byte (glibc does the same in the C locale). */
#define V(i) (((i) - 128) & 255)
#define B(i) CLASS(V(i))
#define L(i) ((int32_t)(UP(V(i)) ? V(i) + 32 : ((i) < 128 && (i) != 127 ? V(i) : (i) - 128)))
#define U(i) ((int32_t)(LO(V(i)) ? V(i) - 32 : ((i) < 128 && (i) != 127 ? V(i) : (i) - 128)))

#define R4(M, i) M(i), M(i + 1), M(i + 2), M(i + 3)
#define R16(M, i) R4(M, i), R4(M, i + 4), R4(M, i + 8), R4(M, i + 12)
#define R64(M, i) R16(M, i), R16(M, i + 16), R16(M, i + 32), R16(M, i + 48)
#define R384(M) R64(M, 0), R64(M, 64), R64(M, 128), R64(M, 192), R64(M, 256), R64(M, 320)

static const unsigned short class_table[384] = {R384(B)};
static const int32_t lower_table[384] = {R384(L)};
static const int32_t upper_table[384] = {R384(U)};

static const unsigned short *class_ptr = class_table + 128;
static const int32_t *lower_ptr = lower_table + 128;
static const int32_t *upper_ptr = upper_table + 128;

const unsigned short **__ctype_b_loc(void) { return &class_ptr; }
const int32_t **__ctype_tolower_loc(void) { return &lower_ptr; }
const int32_t **__ctype_toupper_loc(void) { return &upper_ptr; }

#define CLASSIFIER(name, bit)                                                  \
  int name(int c) { return (class_ptr[c] & (unsigned short)(bit)) != 0; }

CLASSIFIER(isalnum, _ISalnum)
CLASSIFIER(isalpha, _ISalpha)
CLASSIFIER(isblank, _ISblank)
CLASSIFIER(iscntrl, _IScntrl)
CLASSIFIER(isdigit, _ISdigit)
CLASSIFIER(isgraph, _ISgraph)
CLASSIFIER(islower, _ISlower)
CLASSIFIER(isprint, _ISprint)
CLASSIFIER(ispunct, _ISpunct)
CLASSIFIER(isspace, _ISspace)
CLASSIFIER(isupper, _ISupper)
CLASSIFIER(isxdigit, _ISxdigit)

int tolower(int c) { return lower_ptr[c]; }
int toupper(int c) { return upper_ptr[c]; }
int isascii(int c) { return (c & ~0x7f) == 0; }
int toascii(int c) { return c & 0x7f; }
int _tolower(int c) { return c + ('a' - 'A'); }
int _toupper(int c) { return c - ('a' - 'A'); }
