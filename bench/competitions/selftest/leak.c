// sear's own task (not from sv-benchmarks): a list node is lost (valid-memtrack).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; };
int main(void) {
  struct node *head = malloc(sizeof *head);
  head->next = malloc(sizeof *head);
  if (__VERIFIER_nondet_int())
    free(head->next);
  free(head);
  return 0;
}
