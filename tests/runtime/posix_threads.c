// Threads and iconv under the model: mutexes lock and unlock, pthread_once runs its routine
// once, pthread_create fails (EAGAIN: the program runs its work itself, as its fallback),
// iconv_open fails (the program copies ASCII itself). The output is the same natively, where
// the thread and the conversion succeed. One path.
// expect-completed: 1
// expect-error-paths: 0
// expect-test-stdout: mutex 0 0 0 0 | once 1 | work 42 | converted abc\n
// expect-replay: strict
#include <iconv.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int once_count;
static void once_routine(void) { once_count++; }

static int result;
static void *work(void *arg) {
    result = *(int *)arg * 2;
    return NULL;
}

int main(void) {
    pthread_mutex_t m;
    int a = pthread_mutex_init(&m, NULL), b = pthread_mutex_lock(&m);
    int c = pthread_mutex_unlock(&m), d = pthread_mutex_destroy(&m);
    printf("mutex %d %d %d %d | ", a, b, c, d);
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, once_routine);
    pthread_once(&once, once_routine);
    printf("once %d | ", once_count);
    int arg = 21;
    pthread_t t;
    if (pthread_create(&t, NULL, work, &arg) == 0)
        pthread_join(t, NULL);
    else
        work(&arg);
    printf("work %d | ", result);
    char in[] = "abc", out[8] = {0};
    iconv_t cd = iconv_open("UTF-8", "ISO-8859-1");
    if (cd != (iconv_t)-1) {
        char *ip = in, *op = out;
        size_t il = 3, ol = sizeof out - 1;
        iconv(cd, &ip, &il, &op, &ol);
        iconv_close(cd);
    } else {
        memcpy(out, in, 3);
    }
    printf("converted %s\n", out);
    return 0;
}
