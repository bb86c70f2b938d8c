/*
 * glibc's stdio_ext.h, which gnulib's stream functions (close_stream, fpurge, freading)
 * call. Streams are unbuffered (stdio_file.c), so nothing is ever pending or buffered;
 * whether a stream reads or writes follows its open mode (glibc's _IO_NO_READS and
 * _IO_NO_WRITES bits in _flags, set by stdio_file.c).
 */
#include <stdio.h>
#include <stdio_ext.h>

#define NO_READS 0x4
#define NO_WRITES 0x8

size_t __fpending(FILE *f) {
  (void)f;
  return 0;
}

size_t __fbufsize(FILE *f) {
  (void)f;
  return 0;
}

int __freading(FILE *f) { return (f->_flags & NO_WRITES) != 0; }
int __fwriting(FILE *f) { return (f->_flags & NO_READS) != 0; }
int __freadable(FILE *f) { return (f->_flags & NO_READS) == 0; }
int __fwritable(FILE *f) { return (f->_flags & NO_WRITES) == 0; }
int __flbf(FILE *f) {
  (void)f;
  return 0;
}
void __fpurge(FILE *f) { (void)f; }
void _flushlbf(void) {}
int __fsetlocking(FILE *f, int type) {
  (void)f;
  (void)type;
  return FSETLOCKING_INTERNAL;
}
