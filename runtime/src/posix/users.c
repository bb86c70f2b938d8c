/*
 * The user and group databases (pwd.h, grp.h): one user, root (uid 0, home /root, shell
 * /bin/sh), and one group, root (gid 0, no other members), the identity the model gives the
 * program (misc.c: uid and gid 0). Lookups of other names and ids find nothing (NULL, errno
 * unchanged, as glibc for an unknown entry); the *ent functions enumerate the one entry.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>

static char root_name[] = "root";
static char root_passwd[] = "x";
static char root_dir[] = "/root";
static char root_shell[] = "/bin/sh";
static char *no_members[] = {NULL};

static struct passwd root_user = {root_name, root_passwd, 0, 0, root_name, root_dir, root_shell};
static struct group root_group = {root_name, root_passwd, 0, no_members};

struct passwd *getpwnam(const char *name) {
  return strcmp(name, root_name) == 0 ? &root_user : NULL;
}
struct passwd *getpwuid(uid_t uid) { return uid == 0 ? &root_user : NULL; }
struct group *getgrnam(const char *name) {
  return strcmp(name, root_name) == 0 ? &root_group : NULL;
}
struct group *getgrgid(gid_t gid) { return gid == 0 ? &root_group : NULL; }

static int next_user, next_group;
void setpwent(void) { next_user = 0; }
void endpwent(void) { next_user = 0; }
struct passwd *getpwent(void) { return next_user++ == 0 ? &root_user : NULL; }
void setgrent(void) { next_group = 0; }
void endgrent(void) { next_group = 0; }
struct group *getgrent(void) { return next_group++ == 0 ? &root_group : NULL; }

/* The reentrant forms copy nothing: the entries are constant. */
int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t len, struct passwd **out) {
  (void)buf;
  (void)len;
  struct passwd *p = getpwnam(name);
  if (p != NULL)
    *pw = *p;
  *out = p != NULL ? pw : NULL;
  return 0;
}
int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t len, struct passwd **out) {
  (void)buf;
  (void)len;
  struct passwd *p = getpwuid(uid);
  if (p != NULL)
    *pw = *p;
  *out = p != NULL ? pw : NULL;
  return 0;
}

/* The groups of user: its primary group and, for root, nothing else. */
int getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups) {
  (void)user;
  int room = *ngroups;
  *ngroups = 1;
  if (room < 1)
    return -1;
  groups[0] = group;
  return 1;
}

int initgroups(const char *user, gid_t group) {
  (void)user;
  (void)group;
  return 0;
}

int setgroups(size_t n, const gid_t *groups) {
  (void)groups;
  return n <= 1 ? 0 : (errno = EPERM, -1);
}
