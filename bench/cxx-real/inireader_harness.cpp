// sear harness for inih's C++ API (INIReader, Debian package libinih): a symbolic buffer of
// SIZE bytes (default 12) is parsed by INIReader(const char*, size_t), which runs ini.c's
// ini_parse_string; then every getter is called on names that the symbolic input can match.
// INIReader.cpp is included here (one C++ translation unit, compiled by sear with libc++);
// ini.c is compiled to bitcode by run.sh and linked with --link-llvm-lib. -D SYM_OPTIONS makes
// Debian's runtime options symbolic; -D FROM_FILE parses the symbolic file A instead.
#include "klee/klee.h"
#include "INIReader.cpp"
#include <string>
#include <vector>

#ifndef SIZE
#define SIZE 12
#endif

#ifdef SYM_OPTIONS
// Debian's patch 0002 turns ini.h's compile-time options into global variables (its test suite
// sets them from the command line, 13 configurations); with -D SYM_OPTIONS they are symbolic,
// the numbers limited to the values the test suite uses.
static void symbolic_options() {
    unsigned char o[9];
    klee_make_symbolic(o, sizeof o, "options");
    ini_allow_multiline = o[0] & 1;
    ini_allow_bom = o[1] & 1;
    ini_allow_inline_comments = o[2] & 1;
    ini_use_stack = o[3] & 1;
    ini_allow_realloc = o[4] & 1;
    ini_stop_on_first_error = o[5] & 1;
    ini_allow_no_value = o[6] & 1;
    ini_max_line = (o[7] & 1) ? 20 : 200;
    ini_initial_alloc = (o[8] % 3 == 0) ? 5 : (o[8] % 3 == 1) ? 20 : 200;
}
#endif

int main() {
#ifdef SYM_OPTIONS
    symbolic_options();
#endif
#ifdef FROM_FILE
    // The file entry point, INIReader(const std::string& filename) over ini_parse and
    // ini_parse_file (fgets): run with --sym-files 1 SIZE, the symbolic file "A".
    INIReader reader(std::string("A"));
#else
    char buf[SIZE];
    klee_make_symbolic(buf, sizeof buf, "ini");
    INIReader reader(buf, sizeof buf);
#endif
    int err = reader.ParseError();
    if (err < 0)
        return 2;
    // Short names, so that a few symbolic bytes can define them: section "s", names "a".."b".
    std::string s = reader.Get("s", "a", "none");
    std::string t = reader.GetString("", "a", "dflt");
    long i = reader.GetInteger("s", "a", -1);
    int64_t i64 = reader.GetInteger64("", "a", -1);
    unsigned long u = reader.GetUnsigned("s", "b", 7);
    uint64_t u64 = reader.GetUnsigned64("", "b", 7);
    double d = reader.GetReal("s", "b", 0.5);
    bool b = reader.GetBoolean("", "b", false);
    bool hs = reader.HasSection("s");
    bool hv = reader.HasValue("s", "a");
    std::vector<std::string> secs = reader.Sections();
    size_t nkeys = 0;
    for (const std::string& sec : secs)
        nkeys += reader.Keys(sec).size();
    return (err > 0) + (int)s.size() + (int)t.size() + (i > 0) + (i64 > 0) + (u > 7) + (u64 > 7) +
           (d > 1.0) + b + hs + hv + (int)nkeys > 1000;
}
