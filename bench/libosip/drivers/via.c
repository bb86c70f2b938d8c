// osip_message_set_via on a string of symbolic length (Table 5.1's first row: in libosip
// 5.2.0, '/\x01/ ' of length >= 5 over-reads at strchr(host + 1, ' ') in osip_via_parse).
#include <osipparser2/osip_parser.h>
#include "common.h"

int main(void) {
  char *s = symbolic_string("hvalue");
  osip_message_t *sip;
  if (osip_message_init(&sip) != 0)
    return 1;
  int r = osip_message_set_via(sip, s);
  osip_message_free(sip);
  free(s);
  return r == 0;
}
