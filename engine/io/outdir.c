/* Output directories: lock, refusal, backups (see outdir.h). */
#include "io/outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_NAME ".vkmd.lock"

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void append(char *note, size_t size, const char *text)
{
    if (!note || size == 0)
        return;
    const size_t used = strlen(note);
    if (used + 1 < size)
        snprintf(note + used, size - used, "%s%s", used ? "; " : "", text);
}

/* 1: took the lock; 0: held by a live process (*out_pid); -1: error (errno). */
static int try_lock(const char *path, long *out_pid)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        char text[32];
        const int n = snprintf(text, sizeof text, "%ld\n", (long)getpid());
        const int ok = write(fd, text, (size_t)n) == n;
        close(fd);
        return ok ? 1 : -1;
    }
    if (errno != EEXIST)
        return -1;
    FILE *f = fopen(path, "r");
    long pid = 0;
    if (f) {
        if (fscanf(f, "%ld", &pid) != 1)
            pid = 0;
        fclose(f);
    }
    *out_pid = pid;
    if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
        return 0;
    return 2; /* stale */
}

/* Moves `path` to the first free PATH.N (named in `to`). */
static vkmd_result move_aside(const char *path, char *to, size_t to_size)
{
    for (int n = 1;; ++n) {
        snprintf(to, to_size, "%s.%d", path, n);
        if (!exists(to))
            break;
    }
    if (rename(path, to) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot move it aside to %s: %s", path, to,
                         strerror(errno));
    return VKMD_OK;
}

vkmd_result vkmd_outdir_claim(const char *dir, const char *const *names, int count,
                              vkmd_outdir_mode mode, vkmd_outdir *out, char *note, size_t note_size)
{
    out->lock_path[0] = 0;
    if (note && note_size)
        note[0] = 0;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create the output directory: %s", dir,
                         strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return vkmd_fail(VKMD_ERROR_IO, "%s: exists and is not a directory", dir);
    char lock[4200];
    snprintf(lock, sizeof lock, "%s/%s", dir, LOCK_NAME);
    for (int attempt = 0;; ++attempt) {
        long pid = 0;
        const int got = try_lock(lock, &pid);
        if (got == 1)
            break;
        if (got < 0)
            return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create the lock: %s", lock,
                             strerror(errno));
        if (got == 0)
            return vkmd_fail(VKMD_ERROR_IO,
                             "%s is in use by another run, process %ld (%s): give another --out, "
                             "or wait for it",
                             dir, pid, lock);
        if (attempt > 0 || (unlink(lock) != 0 && errno != ENOENT))
            return vkmd_fail(VKMD_ERROR_IO, "%s: cannot take over the stale lock: %s", lock,
                             strerror(errno));
        char text[160];
        snprintf(text, sizeof text, "took over the stale lock of process %ld (not running)", pid);
        append(note, note_size, text);
    }
    snprintf(out->lock_path, sizeof out->lock_path, "%s", lock);
    if (mode == VKMD_OUTDIR_CONTINUE)
        return VKMD_OK;
    char found[1024] = "";
    for (int k = 0; k < count; ++k) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        if (!exists(path))
            continue;
        if (mode == VKMD_OUTDIR_FRESH) {
            append(found, sizeof found, names[k]);
            continue;
        }
        char to[4300];
        const vkmd_result r = move_aside(path, to, sizeof to);
        if (r != VKMD_OK) {
            vkmd_outdir_release(out);
            return r;
        }
        char text[300];
        snprintf(text, sizeof text, "moved aside %s -> %s", names[k], strrchr(to, '/') + 1);
        append(note, note_size, text);
    }
    if (found[0]) {
        for (char *c = found; (c = strstr(c, "; ")) != NULL;)
            c[0] = ',';
        vkmd_outdir_release(out);
        return vkmd_fail(VKMD_ERROR_IO,
                         "%s holds a previous run's outputs (%s): give another --out, --overwrite "
                         "(they are moved aside to NAME.1, NAME.2 ...) or --restart "
                         "%s/checkpoint.chk to continue it",
                         dir, found, dir);
    }
    return VKMD_OK;
}

void vkmd_outdir_release(vkmd_outdir *o)
{
    if (o && o->lock_path[0]) {
        unlink(o->lock_path);
        o->lock_path[0] = 0;
    }
}

vkmd_result vkmd_outfile_claim(const char *path, int overwrite, char *note, size_t note_size)
{
    if (note && note_size)
        note[0] = 0;
    if (!exists(path))
        return VKMD_OK;
    if (!overwrite)
        return vkmd_fail(VKMD_ERROR_IO,
                         "%s exists (an earlier run's output?): give another --out, or "
                         "--overwrite (it is moved aside to %s.1, .2 ...)",
                         path, path);
    char to[4300];
    VKMD_TRY_RETURN(move_aside(path, to, sizeof to));
    if (note && note_size)
        snprintf(note, note_size, "moved aside %s -> %s", path, to);
    return VKMD_OK;
}
