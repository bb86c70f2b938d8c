/* A hash table with symbolic keys: Pearson hashing through a 256-entry permutation table
 * (h = T[h ^ key[i]], nested reads), open addressing in 16 buckets. SIZE = number of
 * symbolic 2-byte keys inserted; then a lookup of a symbolic key. */
#include "../bench.h"

static unsigned char perm[256];
#define BUCKETS 16
static unsigned short slots[BUCKETS];
static unsigned char used[BUCKETS];

static unsigned char pearson(const unsigned char *k, int n) {
    unsigned char h = 0;
    for (int i = 0; i < n; i++)
        h = perm[h ^ k[i]];
    return h;
}

static int insert(const unsigned char *k) {
    unsigned b = pearson(k, 2) % BUCKETS;
    unsigned short key = (unsigned short)(k[0] | k[1] << 8);
    for (int probe = 0; probe < BUCKETS; probe++) {
        unsigned s = (b + probe) % BUCKETS;
        if (!used[s]) {
            used[s] = 1;
            slots[s] = key;
            return probe;
        }
        if (slots[s] == key)
            return -1; /* duplicate */
    }
    return -2;
}

int main(void) {
    /* a fixed permutation: x -> 167 * x + 13 (mod 256) */
    for (int i = 0; i < 256; i++)
        perm[i] = (unsigned char)(167 * i + 13);
    unsigned char keys[SIZE + 1][2];
    klee_make_symbolic(keys, sizeof keys, "keys");
    int collisions = 0;
    for (int i = 0; i < SIZE; i++) {
        int r = insert(keys[i]);
        if (r < 0)
            return -1;
        collisions += r;
    }
    unsigned b = pearson(keys[SIZE], 2) % BUCKETS;
    if (used[b])
        return 100 + collisions;
    return collisions;
}
