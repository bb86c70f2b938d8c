/*
 * The runtime's entry point, linked in whole (not on demand) when sear runs
 * a program's main: sets up the POSIX environment model from argv (see
 * posix/env.c), the program name and the environment, then runs the
 * program's main and exits with its result, running atexit handlers.
 * The engine maps __sear_user_main to the program's main.
 */
#include <stdlib.h>
#include <unistd.h>

#include "sear_rt.h"

extern char **environ;
extern char *program_invocation_name;
extern char *program_invocation_short_name;

static char *base_name(char *path) {
  char *base = path;
  for (char *p = path; *p != '\0'; p++)
    if (*p == '/')
      base = p + 1;
  return base;
}

int __sear_start(int argc, char **argv, char **envp) {
  __sear_init_env(&argc, &argv);
  if (envp != NULL)
    environ = envp;
  if (argc > 0 && argv[0] != NULL) {
    program_invocation_name = argv[0];
    program_invocation_short_name = base_name(argv[0]);
  }
  int status = __sear_user_main(argc, argv, environ);
  /* What the runtime's exit does, without calling `exit` by name: a program may define
   * its own (older SV-COMP tasks define `void exit(int s) { _EXIT: goto _EXIT; }`), and
   * returning from main must still end the program, as libc's internal call does. */
  __sear_run_atexit();
  _exit(status);
}
