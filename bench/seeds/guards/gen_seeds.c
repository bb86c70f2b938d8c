/* Computes, natively, each guard's value on its program's key and writes one seed per
 * program (DIR/NAME.ktest: objects `key` and `cmd` = "help"), in KLEE's .ktest format
 * (version 3). Prints `NAME 0xVALUE` per guard; compare.sh checks the values against the
 * EXPECTED constants of the programs. Usage: gen_seeds DIR */
#include <stdio.h>
#include <string.h>

#include "guards.h"

struct seed {
  const char *name;
  uint64_t (*guard)(const unsigned char *);
  unsigned char key[16];
  unsigned len;
};

static void u32be(FILE *f, uint32_t v) {
  unsigned char b[4] = {v >> 24, v >> 16, v >> 8, v};
  fwrite(b, 1, 4, f);
}

static void bytes(FILE *f, const void *p, uint32_t n) {
  u32be(f, n);
  fwrite(p, 1, n, f);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gen_seeds DIR\n");
    return 2;
  }
  struct seed seeds[] = {
      {"fnv", guard_fnv, "s3cr3t!#", 8},
      {"crc32", guard_crc32, "open-ses", 8},
      {"adler32", guard_adler32, "correct horse ba", 16},
      {"fmix64", guard_fmix64, "K3yW0rd!", 8},
      {"sip", guard_sip, "Sip-2-2!", 8},
      {"factor", guard_factor, {0xc5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xad, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 16},
  };
  for (unsigned i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
    struct seed *s = &seeds[i];
    printf("%s 0x%llx\n", s->name, (unsigned long long)s->guard(s->key));
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.ktest", argv[1], s->name);
    FILE *f = fopen(path, "wb");
    if (!f) {
      perror(path);
      return 1;
    }
    fwrite("KTEST", 1, 5, f);
    u32be(f, 3);        /* version */
    u32be(f, 0);        /* arguments */
    u32be(f, 0);        /* symbolic argvs */
    u32be(f, 0);        /* symbolic argv length */
    u32be(f, 2);        /* objects */
    bytes(f, "key", 3);
    bytes(f, s->key, s->len);
    bytes(f, "cmd", 3);
    bytes(f, "help", 4);
    fclose(f);
  }
  return 0;
}
