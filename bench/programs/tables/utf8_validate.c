/* UTF-8 validator as a DFA: a 256-entry byte-class table and a state x class transition
 * table (state = trans[state][cls[byte]], nested reads). SIZE = number of symbolic bytes. */
#include "../bench.h"

/* byte classes */
enum { ASCII, CONT_LO, CONT_MID, CONT_HI, LEAD2, E0, LEAD3, ED, F0, LEAD4, F4, BAD, NCLS };
/* states */
enum { ACC, REJ, NEED1, NEED2, E0_2, ED_2, NEED3, F0_3, F4_3, NSTATES };

static unsigned char cls[256];
static const unsigned char trans[NSTATES][NCLS] = {
    /*            ASCII CLO   CMID  CHI   LEAD2 E0    LEAD3 ED    F0    LEAD4 F4    BAD */
    [ACC]    = {ACC,  REJ,  REJ,  REJ,  NEED1, E0_2, NEED2, ED_2, F0_3, NEED3, F4_3, REJ},
    [REJ]    = {REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ},
    [NEED1]  = {REJ,  ACC,  ACC,  ACC,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ},
    [NEED2]  = {REJ,  NEED1, NEED1, NEED1, REJ, REJ, REJ,  REJ,  REJ,  REJ,  REJ,  REJ},
    [E0_2]   = {REJ,  REJ,  REJ,  NEED1, REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ},
    [ED_2]   = {REJ,  NEED1, NEED1, REJ, REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ},
    [NEED3]  = {REJ,  NEED2, NEED2, NEED2, REJ, REJ, REJ,  REJ,  REJ,  REJ,  REJ,  REJ},
    [F0_3]   = {REJ,  REJ,  NEED2, NEED2, REJ, REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ},
    [F4_3]   = {REJ,  NEED2, REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ,  REJ},
};

static void init_classes(void) {
    for (int b = 0; b < 256; b++) {
        unsigned char c;
        if (b < 0x80) c = ASCII;
        else if (b < 0x90) c = CONT_LO;          /* 80..8F */
        else if (b < 0xA0) c = CONT_MID;         /* 90..9F */
        else if (b < 0xC0) c = CONT_HI;          /* A0..BF */
        else if (b < 0xC2) c = BAD;              /* C0, C1: overlong */
        else if (b < 0xE0) c = LEAD2;
        else if (b == 0xE0) c = E0;
        else if (b == 0xED) c = ED;
        else if (b < 0xF0) c = LEAD3;
        else if (b == 0xF0) c = F0;
        else if (b < 0xF4) c = LEAD4;
        else if (b == 0xF4) c = F4;
        else c = BAD;
        cls[b] = c;
    }
}

int main(void) {
    init_classes();
    unsigned char s[SIZE];
    klee_make_symbolic(s, sizeof s, "s");
    unsigned state = ACC;
    for (int i = 0; i < SIZE; i++) {
        state = trans[state][cls[s[i]]];
        if (state == REJ)
            return 0;
    }
    return state == ACC;
}
