// errno, strerror, perror and err.h's warnx (with the program's name from argv[0]).
// expect-completed: 1
// expect-test-stderr: missing: No such file or directory\nBad file descriptor\nerrors_errno: done 3\n
// expect-replay: strict
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    if (open("missing", O_RDONLY) == -1 && errno == ENOENT)
        perror("missing");
    if (close(-1) == -1)
        fprintf(stderr, "%s\n", strerror(errno));
    warnx("done %d", 3);
    return 0;
}
