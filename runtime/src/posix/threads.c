/*
 * Threads: programs run single-threaded under the model. Mutexes, read-write locks and
 * condition variables are flags that never block (a lock always succeeds for the one thread;
 * waiting on a condition would block forever, so it fails with EDEADLK); pthread_once runs
 * its routine once; creating a thread fails with EAGAIN (as when the system is out of
 * threads), so programs take their single-threaded path (sort's parallel merge).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
  (void)a;
  m->__data.__lock = 0;
  return 0;
}
int pthread_mutex_destroy(pthread_mutex_t *m) {
  (void)m;
  return 0;
}
int pthread_mutex_lock(pthread_mutex_t *m) {
  m->__data.__lock = 1;
  return 0;
}
int pthread_mutex_trylock(pthread_mutex_t *m) {
  m->__data.__lock = 1;
  return 0;
}
int pthread_mutex_unlock(pthread_mutex_t *m) {
  m->__data.__lock = 0;
  return 0;
}
int pthread_mutexattr_init(pthread_mutexattr_t *a) {
  (void)a;
  return 0;
}
int pthread_mutexattr_settype(pthread_mutexattr_t *a, int type) {
  (void)a;
  (void)type;
  return 0;
}
int pthread_mutexattr_destroy(pthread_mutexattr_t *a) {
  (void)a;
  return 0;
}

int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *a) {
  (void)l;
  (void)a;
  return 0;
}
int pthread_rwlock_rdlock(pthread_rwlock_t *l) {
  (void)l;
  return 0;
}
int pthread_rwlock_wrlock(pthread_rwlock_t *l) {
  (void)l;
  return 0;
}
int pthread_rwlock_unlock(pthread_rwlock_t *l) {
  (void)l;
  return 0;
}
int pthread_rwlock_destroy(pthread_rwlock_t *l) {
  (void)l;
  return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
  (void)c;
  (void)a;
  return 0;
}
int pthread_cond_destroy(pthread_cond_t *c) {
  (void)c;
  return 0;
}
int pthread_cond_signal(pthread_cond_t *c) {
  (void)c;
  return 0;
}
int pthread_cond_broadcast(pthread_cond_t *c) {
  (void)c;
  return 0;
}
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  (void)c;
  (void)m;
  return EDEADLK;
}

int pthread_once(pthread_once_t *once, void (*routine)(void)) {
  if (*once == PTHREAD_ONCE_INIT) {
    *once = PTHREAD_ONCE_INIT + 1;
    routine();
  }
  return 0;
}

pthread_t pthread_self(void) { return 1; }
int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*start)(void *), void *arg) {
  (void)t;
  (void)a;
  (void)start;
  (void)arg;
  return EAGAIN;
}
int pthread_join(pthread_t t, void **result) {
  (void)t;
  (void)result;
  return ESRCH;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
  return sigprocmask(how, set, old) == 0 ? 0 : errno;
}
