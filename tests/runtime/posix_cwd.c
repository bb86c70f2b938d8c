// The current directory is not "/" (natively a test replays in a scratch directory): "/A"
// does not name the symbolic file A, while getcwd() + "/A", "./A" and "A" do; the
// directory lists A by its full path too, a file created through the full path is found by
// its short name, and the root lists none of the model's files.
// Reasoning: nothing the program branches on is symbolic: one path, the same output natively.
// sear-args: --sym-files 1 2
// expect-completed: 1
// expect-test-stdout: root A: 2\nfull A: 0\ndot A: 0\nlisted A: 1\ncreated: 0\nroot lists A: 0\n
// expect-replay: strict
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int lists(const char *dir, const char *name) {
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    struct dirent *e;
    int found = 0;
    while ((e = readdir(d)) != NULL)
        found |= strcmp(e->d_name, name) == 0;
    closedir(d);
    return found;
}

int main(void) {
    struct stat st;
    char cwd[256], path[300];
    if (getcwd(cwd, sizeof cwd) == NULL || strcmp(cwd, "/") == 0)
        return 1;
    printf("root A: %d\n", stat("/A", &st) == 0 ? 0 : errno);
    snprintf(path, sizeof path, "%s/A", cwd);
    printf("full A: %d\n", stat(path, &st) == 0 ? 0 : errno);
    printf("dot A: %d\n", stat("./A", &st) == 0 ? 0 : errno);
    printf("listed A: %d\n", lists(cwd, "A"));
    snprintf(path, sizeof path, "%s/made.txt", cwd);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        return 2;
    close(fd);
    printf("created: %d\n", stat("made.txt", &st) == 0 ? 0 : errno);
    printf("root lists A: %d\n", lists("/", "A"));
    return 0;
}
