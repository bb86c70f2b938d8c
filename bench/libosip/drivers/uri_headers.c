// osip_uri_parse_headers on a string of symbolic length (Table 5.1: in libosip 5.2.0, ''
// over-reads at strchr(headers + 1, '&'), '=' underflows equal - headers - 1).
#include <osipparser2/osip_uri.h>
#include "common.h"

int main(void) {
  char *s = symbolic_string("headers");
  osip_uri_t *url;
  if (osip_uri_init(&url) != 0)
    return 1;
  int r = osip_uri_parse_headers(url, s);
  osip_uri_free(url);
  free(s);
  return r == 0;
}
