// A symbolic stdin has a symbolic file status, as in KLEE: its type decides fstat's
// answer, isatty, tcgetattr and the terminal ioctls (a character device is a terminal,
// 24x80), and replay answers these calls from the test's stdin-stat.
// Reasoning: fstat's type forks 3 ways (regular, character device, other); isatty,
// tcgetattr and TIOCGWINSZ agree with it without forking again: 3 paths. FIONREAD counts
// the bytes left (2, 1 after a read) on every path.
// sear-args: --sym-stdin 2
// expect-completed: 3
// expect-test-stdout: regular\nnot a tty 25\nleft 2\nleft 1\n
// expect-test-stdout: character device\ntty 24x80 canonical\nleft 2\nleft 1\n
// expect-test-stdout: other\nnot a tty 25\nleft 2\nleft 1\n
// expect-replay: strict
#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

int main(void) {
    struct stat st;
    if (fstat(0, &st) != 0)
        return 1;
    if (S_ISREG(st.st_mode))
        puts("regular");
    else if (S_ISCHR(st.st_mode))
        puts("character device");
    else
        puts("other");
    struct termios t;
    struct winsize ws;
    if (isatty(0)) {
        if (tcgetattr(0, &t) != 0 || ioctl(0, TIOCGWINSZ, &ws) != 0)
            return 2;
        printf("tty %dx%d %s\n", ws.ws_row, ws.ws_col, (t.c_lflag & ICANON) ? "canonical" : "raw");
    } else {
        int e = errno;
        if (tcgetattr(0, &t) == 0 || ioctl(0, TIOCGWINSZ, &ws) == 0)
            return 3;
        printf("not a tty %d\n", e);
    }
    int n = -1;
    char c;
    if (ioctl(0, FIONREAD, &n) == 0)
        printf("left %d\n", n);
    if (read(0, &c, 1) == 1 && ioctl(0, FIONREAD, &n) == 0)
        printf("left %d\n", n);
    return 0;
}
