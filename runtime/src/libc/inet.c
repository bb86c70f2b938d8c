/*
 * Byte-order conversions of <arpa/inet.h>. With optimisation glibc's header inlines them;
 * without (clang -O0, as sear compiles), programs call these functions. x86-64 is little
 * endian: network order is the byte swap.
 */
#include <stdint.h>

uint32_t htonl(uint32_t x) { return __builtin_bswap32(x); }
uint16_t htons(uint16_t x) { return __builtin_bswap16(x); }
uint32_t ntohl(uint32_t x) { return __builtin_bswap32(x); }
uint16_t ntohs(uint16_t x) { return __builtin_bswap16(x); }
