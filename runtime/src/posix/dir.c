/*
 * Directory listing: the current directory (".", also SEAR_CWD) lists ".", "..", then
 * the files in it (the symbolic files, files the program created, --host-file copies named
 * without a directory) in strcmp order, so that a native replay, which sorts its real
 * listing the same way, agrees; the root "/" lists only "." and "..". A listing is a
 * snapshot taken by opendir / fdopendir and again by rewinddir. Entries of files with a
 * symbolic status (--sym-files) have its inode and type (d_type), symbolic as in KLEE's
 * model. opendir takes a descriptor, as natively: dirfd gives it, and the *at functions
 * accept it for the current directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sear_rt.h"

struct __dirstream {
  int fd;
  long pos;
  int count;
  struct sear_node **nodes; /* the listing after "." and ".." */
  int root;                 /* "/", which lists nothing else */
  struct dirent ent;
};

static int listed(const struct sear_node *n) {
  return (n->flags & SEAR_NODE_USED) && n->name != NULL && !(n->flags & SEAR_NODE_DIR) &&
         strchr(n->name, '/') == NULL;
}

/* The files of the directory, sorted by name (insertion sort: a few dozen at most). */
static int snapshot(DIR *d) {
  free(d->nodes);
  d->nodes = malloc(SEAR_MAX_NODES * sizeof *d->nodes);
  if (d->nodes == NULL) {
    errno = ENOMEM;
    return -1;
  }
  int count = 0;
  for (int i = 0; i < SEAR_MAX_NODES; i++) {
    struct sear_node *n = &__sear_nodes[i];
    if (d->root || !listed(n))
      continue;
    int at = count++;
    while (at > 0 && strcmp(d->nodes[at - 1]->name, n->name) > 0) {
      d->nodes[at] = d->nodes[at - 1];
      at--;
    }
    d->nodes[at] = n;
  }
  d->count = count;
  d->pos = 0;
  return 0;
}

DIR *fdopendir(int fd) {
  struct sear_desc *desc = __sear_get_desc(fd);
  if (desc == NULL)
    return NULL;
  if (desc->kind != SEAR_DESC_NODE || !(desc->node->flags & SEAR_NODE_DIR)) {
    errno = ENOTDIR;
    return NULL;
  }
  DIR *d = calloc(1, sizeof *d);
  if (d == NULL) {
    errno = ENOMEM;
    return NULL;
  }
  d->fd = fd;
  d->root = desc->node == SEAR_ROOT_NODE;
  if (snapshot(d) != 0) {
    free(d);
    return NULL;
  }
  return d;
}

DIR *opendir(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY);
  if (fd < 0)
    return NULL;
  DIR *d = fdopendir(fd);
  if (d == NULL)
    close(fd);
  return d;
}

int closedir(DIR *d) {
  int r = close(d->fd);
  free(d->nodes);
  free(d);
  return r;
}

struct dirent *readdir(DIR *d) {
  if (d->pos < 0 || d->pos >= d->count + 2)
    return NULL;
  struct dirent *e = &d->ent;
  memset(e, 0, sizeof *e);
  struct stat st;
  if (d->pos < 2) {
    __sear_desc_stat(__sear_fds[d->fd].desc, &st);
    strcpy(e->d_name, d->pos == 0 ? "." : "..");
  } else {
    const struct sear_node *n = d->nodes[d->pos - 2];
    __sear_node_stat(n, &st);
    strcpy(e->d_name, n->name);
  }
  e->d_ino = st.st_ino;
  e->d_type = (unsigned char)((st.st_mode >> 12) & 15); /* IFTODT */
  e->d_reclen = sizeof *e;
  d->pos++;
  e->d_off = d->pos;
  return e;
}

/* On i386 the *64 structure differs; not modelled there (docs/limits.md). */
#if __SIZEOF_POINTER__ == 8
struct dirent64 *readdir64(DIR *d) { return (struct dirent64 *)readdir(d); }
#endif

int readdir_r(DIR *d, struct dirent *entry, struct dirent **result) {
  struct dirent *e = readdir(d);
  if (e != NULL)
    memcpy(entry, e, sizeof *entry);
  *result = e != NULL ? entry : NULL;
  return 0;
}

void rewinddir(DIR *d) { (void)snapshot(d); }
long telldir(DIR *d) { return d->pos; }
void seekdir(DIR *d, long pos) { d->pos = pos; }
int dirfd(DIR *d) { return d->fd; }

int alphasort(const struct dirent **a, const struct dirent **b) {
  return strcoll((*a)->d_name, (*b)->d_name);
}

int scandir(const char *path, struct dirent ***list,
            int (*filter)(const struct dirent *),
            int (*compare)(const struct dirent **, const struct dirent **)) {
  DIR *d = opendir(path);
  if (d == NULL)
    return -1;
  struct dirent **out = malloc((size_t)(d->count + 2) * sizeof *out);
  int n = 0;
  struct dirent *e;
  while (out != NULL && (e = readdir(d)) != NULL) {
    if (filter != NULL && !filter(e))
      continue;
    out[n] = malloc(sizeof *e);
    if (out[n] == NULL)
      break;
    memcpy(out[n++], e, sizeof *e);
  }
  closedir(d);
  if (out == NULL) {
    errno = ENOMEM;
    return -1;
  }
  if (compare != NULL)
    qsort(out, (size_t)n, sizeof *out, (int (*)(const void *, const void *))compare);
  *list = out;
  return n;
}

/* On i386 the *64 structure differs; not modelled there (docs/limits.md). */
#if __SIZEOF_POINTER__ == 8
/* The *64 names of large-file builds: struct dirent64 has struct dirent's layout. */
int alphasort64(const struct dirent64 **a, const struct dirent64 **b) {
  return strcoll((*a)->d_name, (*b)->d_name);
}

int scandir64(const char *path, struct dirent64 ***list,
              int (*filter)(const struct dirent64 *),
              int (*compare)(const struct dirent64 **, const struct dirent64 **)) {
  return scandir(path, (struct dirent ***)list, (int (*)(const struct dirent *))filter,
                 (int (*)(const struct dirent **, const struct dirent **))compare);
}
#endif
