/*
 * The C++ ABI's exception and start-up functions (Itanium C++ ABI, as libc++abi names
 * them), for C++ programs: the exception objects and their header, the caught-exception
 * stack, rethrow, std::terminate, static-local guards, pure virtual calls.
 *
 * Unwinding itself is the engine's (crates/sear-engine/src/executor/eh.rs): __cxa_throw
 * records the type and destructor and calls __sear_eh_raise, which finds the handler,
 * pops the frames in between (running cleanups) and enters the landing pad; the engine
 * writes the pointer the handler receives to the header's last word (`adjusted`). The
 * engine reads the header's first word (`type`) on `resume`: keep both in place.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sear_rt.h"

/* The engine's unwinder; does not return (the path goes on in a landing pad, or ends). */
void __sear_eh_raise(void *object, const void *type);

/* 48 bytes (a multiple of 16, so the object keeps malloc's alignment). */
struct sear_exception {
  const void *type;             /* the std::type_info (first word: read by the engine) */
  void (*destructor)(void *);   /* the thrown object's destructor, or NULL */
  struct sear_exception *next;  /* the caught exception below this one */
  int handlers;                 /* handlers that caught it and have not ended */
  int rethrown;                 /* rethrown from its handler */
  void *unused;
  void *adjusted;               /* the handler's view of the object (written by the engine) */
};

static struct sear_exception *caught;
static unsigned uncaught;

static struct sear_exception *header_of(void *object) {
  return (struct sear_exception *)object - 1;
}

static void *object_of(struct sear_exception *h) { return h + 1; }

void _ZSt9terminatev(void) __attribute__((noreturn));

void *__cxa_allocate_exception(size_t size) {
  struct sear_exception *h = malloc(sizeof *h + size);
  if (h == NULL)
    _ZSt9terminatev();
  memset(h, 0, sizeof *h);
  return object_of(h);
}

void __cxa_free_exception(void *object) { free(header_of(object)); }

void __cxa_throw(void *object, const void *type, void (*destructor)(void *)) {
  struct sear_exception *h = header_of(object);
  h->type = type;
  h->destructor = destructor;
  uncaught++;
  __sear_eh_raise(object, type);
  _ZSt9terminatev();
}

void *__cxa_get_exception_ptr(void *object) {
  return object ? header_of(object)->adjusted : NULL;
}

void *__cxa_begin_catch(void *object) {
  if (object == NULL)
    return NULL;
  struct sear_exception *h = header_of(object);
  if (h->rethrown)
    h->rethrown = 0;
  if (uncaught > 0)
    uncaught--;
  if (h->handlers == 0) {
    h->next = caught;
    caught = h;
  }
  h->handlers++;
  return h->adjusted;
}

void __cxa_end_catch(void) {
  struct sear_exception *h = caught;
  if (h == NULL)
    return;
  if (--h->handlers > 0)
    return;
  caught = h->next;
  if (h->rethrown)
    return; /* unwinding on: the next handler owns it */
  if (h->destructor)
    h->destructor(object_of(h));
  free(h);
}

void __cxa_rethrow(void) {
  struct sear_exception *h = caught;
  if (h == NULL)
    _ZSt9terminatev();
  h->rethrown = 1;
  uncaught++;
  __sear_eh_raise(object_of(h), h->type);
  _ZSt9terminatev();
}

const void *__cxa_current_exception_type(void) { return caught ? caught->type : NULL; }

unsigned __cxa_uncaught_exceptions(void) { return uncaught; }

_Bool __cxa_uncaught_exception(void) { return uncaught > 0; }

void *__cxa_current_primary_exception(void) { return caught ? object_of(caught) : NULL; }

/* std::set_terminate's handler (read by the engine: an uncaught exception calls
 * std::terminate, so the handler, when one is set). */
void (*__sear_terminate_handler)(void);

/* std::set_terminate(), std::get_terminate() */
void (*_ZSt13set_terminatePFvvE(void (*handler)(void)))(void) {
  void (*old)(void) = __sear_terminate_handler;
  __sear_terminate_handler = handler;
  return old;
}

void (*_ZSt13get_terminatev(void))(void) { return __sear_terminate_handler; }

/* std::terminate(), std::uncaught_exceptions(), std::uncaught_exception() */
void _ZSt9terminatev(void) {
  if (__sear_terminate_handler)
    __sear_terminate_handler();
  fputs("libc++abi: terminating\n", stderr);
  abort();
}

int _ZSt19uncaught_exceptionsv(void) { return (int)uncaught; }

_Bool _ZSt18uncaught_exceptionv(void) { return uncaught > 0; }

void __cxa_call_unexpected(void *object) {
  (void)object;
  _ZSt9terminatev();
}

void __cxa_pure_virtual(void) {
  fputs("libc++abi: Pure virtual function called!\n", stderr);
  abort();
}

void __cxa_deleted_virtual(void) {
  fputs("libc++abi: Deleted virtual function called!\n", stderr);
  abort();
}

/* Static locals: one thread, so the guard's first byte says "initialised". */
int __cxa_guard_acquire(uint64_t *guard) { return *(volatile char *)guard == 0; }

void __cxa_guard_release(uint64_t *guard) { *(volatile char *)guard = 1; }

void __cxa_guard_abort(uint64_t *guard) { (void)guard; }

/* The handle __cxa_atexit's registrations name their module by (one module here). */
void *__dso_handle = &__dso_handle;
