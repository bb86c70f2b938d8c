// Functions KLEE's runtime has and sear's lacked: the byte-order conversions (called as
// functions at -O0), canonicalize_file_name, futimesat and __cxa_thread_atexit_impl (whose
// handler runs at exit with its argument; __cxa_atexit's handlers used to lose theirs).
// Reasoning: everything is concrete; main's checks all hold and it returns 0; at exit the
// thread-local destructor sees its argument (42) and leaves the status alone: one path, 0.
// (canonicalize_file_name fails like realpath in sear's model, so only its error is
// checked.)
// expect-completed: 1
// expect-exits: 0
// expect-replay: no
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/time.h>

extern int __cxa_thread_atexit_impl(void (*fn)(void *), void *arg, void *dso);
static void check_arg(void *p) {
    if (*(int *)p != 42)
        abort();
}
static int answer = 42;

int main(void) {
    int bad = 0;
    bad |= htonl(0x11223344u) != 0x44332211u;
    bad |= ntohs(htons(0x1234)) != 0x1234;
    bad |= ntohl(htonl(7u)) != 7u;
    char *p = canonicalize_file_name("/nonexistent/file");
    bad |= p != 0;
    bad |= futimesat(AT_FDCWD, "/nonexistent/file", 0) != -1;
    bad |= __cxa_thread_atexit_impl(check_arg, &answer, 0) != 0;
    return bad;
}
