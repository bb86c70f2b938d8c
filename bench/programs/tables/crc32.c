/* Table-driven CRC-32 (reflected, polynomial 0xEDB88320) with a 256-entry uint32 table built
 * at start-up. SIZE = number of symbolic message bytes. The table is read at
 * (crc ^ byte) & 0xff, where crc itself comes from earlier table reads: nested lookups.
 * The program then branches on the checksum. */
#include "../bench.h"

static unsigned table[256];

int main(void) {
    for (unsigned i = 0; i < 256; i++) {
        unsigned c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    unsigned char msg[SIZE];
    klee_make_symbolic(msg, sizeof msg, "msg");
    unsigned crc = 0xFFFFFFFFu;
    for (int i = 0; i < SIZE; i++)
        crc = table[(crc ^ msg[i]) & 0xff] ^ (crc >> 8);
    crc ^= 0xFFFFFFFFu;
    if (crc == 0xCBF43926u)      /* the CRC-32 of "123456789" */
        return 1;
    if ((crc & 0xff) == 0)
        return 2;
    return 0;
}
