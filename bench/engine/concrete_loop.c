/* Concrete-heavy benchmark: no symbolic input; arithmetic, memory and calls. */
static unsigned table[256];

static unsigned mix(unsigned h, unsigned v) {
    h ^= v;
    h *= 16777619u;
    return h;
}

int main(void) {
    for (unsigned i = 0; i < 256; i++)
        table[i] = i * 2654435761u;
    unsigned h = 2166136261u;
    for (unsigned round = 0; round < 4000; round++)
        for (unsigned i = 0; i < 256; i++)
            h = mix(h, table[(i + round) & 255]);
    return h == 0;
}
