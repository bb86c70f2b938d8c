/* The guards of bench/seeds/guards: functions of an 8- or 16-byte key that a solver does
 * not invert within a short query timeout (hashes, checksums, a product of wide words).
 * Each program calls one of them on its symbolic key and hides a bug behind the guard and
 * a command; `gen_seeds.c` computes, natively, the constants the programs compare with and
 * writes one seed per program whose key passes the guard. */
#include <stdint.h>

/* FNV-1a with a shift-xor per byte (tests/seeds/hash_guard.c's mix). */
static uint64_t guard_fnv(const unsigned char *p) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 8; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  return h;
}

/* CRC-32 (IEEE, reflected), table-driven as zlib computes it. */
static uint64_t guard_crc32(const unsigned char *p) {
  uint32_t table[256];
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  uint32_t crc = 0xffffffffu;
  for (int i = 0; i < 8; i++)
    crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

/* Adler-32 over 16 bytes (sums modulo 65521). */
static uint64_t guard_adler32(const unsigned char *p) {
  uint32_t a = 1, b = 0;
  for (int i = 0; i < 16; i++) {
    a = (a + p[i]) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

/* MurmurHash3's 64-bit finaliser of the key read as a little-endian word. */
static uint64_t guard_fmix64(const unsigned char *p) {
  uint64_t k = 0;
  for (int i = 7; i >= 0; i--)
    k = k << 8 | p[i];
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

static uint64_t rotl64(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

/* Two SipHash rounds over the key as one message word, with fixed initial state. */
static uint64_t guard_sip(const unsigned char *p) {
  uint64_t m = 0;
  for (int i = 7; i >= 0; i--)
    m = m << 8 | p[i];
  uint64_t v0 = 0x736f6d6570736575ull, v1 = 0x646f72616e646f6dull;
  uint64_t v2 = 0x6c7967656e657261ull, v3 = 0x7465646279746573ull ^ m;
  for (int r = 0; r < 2; r++) {
    v0 += v1; v1 = rotl64(v1, 13); v1 ^= v0; v0 = rotl64(v0, 32);
    v2 += v3; v3 = rotl64(v3, 16); v3 ^= v2;
    v0 += v3; v3 = rotl64(v3, 21); v3 ^= v0;
    v2 += v1; v1 = rotl64(v1, 17); v1 ^= v2; v2 = rotl64(v2, 32);
  }
  v0 ^= m;
  return v0 ^ v1 ^ v2 ^ v3;
}

/* Factoring: the key's two little-endian 64-bit words must multiply (in 128 bits) to the
 * product of the two largest 64-bit primes, 2^64 - 59 and 2^64 - 83. Returns 1 when they
 * do (so EXPECTED is 1). */
static uint64_t guard_factor(const unsigned char *p) {
  uint64_t a = 0, b = 0;
  for (int i = 7; i >= 0; i--) {
    a = a << 8 | p[i];
    b = b << 8 | p[8 + i];
  }
  const unsigned __int128 n = (unsigned __int128)18446744073709551557ull * 18446744073709551533ull;
  return a > 1 && b > 1 && (unsigned __int128)a * b == n;
}
