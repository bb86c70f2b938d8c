// poll on the model's descriptors: stdout is ready for writing, a closed descriptor is
// POLLNVAL, a negative one is skipped; poll returns at once with the count. The same holds
// natively (stdout is a file there). One path.
// expect-completed: 1
// expect-error-paths: 0
// expect-test-stdout: poll 2 out 1 nval 1 skipped 0\n
// expect-replay: strict
#include <poll.h>
#include <stdio.h>

int main(void) {
    struct pollfd fds[3] = {{1, POLLOUT, 0}, {77, POLLIN, 0}, {-1, POLLIN, 0}};
    int n = poll(fds, 3, 1000);
    printf("poll %d out %d nval %d skipped %d\n", n, (fds[0].revents & POLLOUT) != 0,
           (fds[1].revents & POLLNVAL) != 0, fds[2].revents);
    return 0;
}
