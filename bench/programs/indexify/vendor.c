/* Indexify strings (seed 004 §6.1): the ReactOS vbe.c bug, strncmp(Vendor, Nv11Vendor,
 * sizeof(Nv11Vendor)) with the pointer's size where the string's was meant. PTR_SIZE is 4
 * for the 32-bit build the paper reports (the assertion then fails for Vendor = "NVidia"). */
#include <assert.h>
#include <string.h>
#include <klee/klee.h>

#ifndef SIZE
#define SIZE 64
#endif
#ifndef PTR_SIZE
#define PTR_SIZE 4
#endif

static const char *Nv11Vendor = "NVidiaCorporation";
static const char *Vendors[] = {"NVidia", "ATI", "Matrox", "S3"};

static int IsVesaBiosOk(const char *Vendor) {
  if (!strncmp(Vendor, Nv11Vendor, PTR_SIZE))
    assert(strncmp(Vendor, Nv11Vendor, SIZE) == 0);
  for (int i = 0; i < 4; i++)
    if (strcmp(Vendor, Vendors[i]) == 0)
      return i + 1;
  return 0;
}

int main(void) {
  char Vendor[SIZE];
  klee_make_symbolic(Vendor, sizeof Vendor, "Vendor");
  return IsVesaBiosOk(Vendor);
}
