/* An output directory that no run loses to another: what every client that
 * writes a run's outputs into DIR (vkmd run, equilibrate, the ensemble's
 * replicas, the library's runs) claims first.
 *   - A lock, DIR/.vkmd.lock (created exclusively, holding the process id),
 *     refuses a second run into DIR while the first runs; a lock whose
 *     process is gone (killed) is stale and taken over, with a note.
 *   - DIR holding any of `names` from an earlier run is refused, naming
 *     them, unless the run continues it (a restart: the files are its own)
 *     or overwrites: then each is moved aside to NAME.1 (NAME.2, ... the
 *     first free), as GROMACS backs up, so nothing is ever lost. */
#ifndef VKMD_IO_OUTDIR_H
#define VKMD_IO_OUTDIR_H

#include "core/result.h"

#include <stddef.h>

typedef enum vkmd_outdir_mode {
    VKMD_OUTDIR_FRESH = 0,     /* refuse earlier outputs */
    VKMD_OUTDIR_OVERWRITE = 1, /* move them aside to NAME.N */
    VKMD_OUTDIR_CONTINUE = 2   /* a restart: they are this run's */
} vkmd_outdir_mode;

typedef struct vkmd_outdir {
    char lock_path[4200]; /* "": no lock held */
} vkmd_outdir;

/* Creates DIR if missing, takes its lock and applies `mode` to the `count`
 * file names. `note` (may be NULL, `note_size` bytes) receives what was done
 * that a user should know ("took over the stale lock of process 123 (not
 * running)"; "moved aside: traj.dcd -> traj.dcd.1, ..."), "" if nothing.
 * Errors: VKMD_ERROR_IO (cannot create DIR or the lock, a move failed;
 * DIR in use by a running process: the message names it and the lock;
 * earlier outputs in FRESH mode: the message names them and the options).
 * On failure no lock is held. */
vkmd_result vkmd_outdir_claim(const char *dir, const char *const *names, int count,
                              vkmd_outdir_mode mode, vkmd_outdir *out, char *note,
                              size_t note_size);

/* Releases the lock (removes the file); a zeroed or released one: no-op. */
void vkmd_outdir_release(vkmd_outdir *o);

/* The file counterpart, for a command whose output is one file (vkmd uff
 * relax --out FILE): an existing `path` is refused, naming it, unless
 * `overwrite`; then it is moved aside to PATH.1 (PATH.2, ... the first
 * free) and `note` (may be NULL) says so ("" if nothing was moved).
 * Errors: VKMD_ERROR_IO (refused, or the move failed). */
vkmd_result vkmd_outfile_claim(const char *path, int overwrite, char *note, size_t note_size);

#endif
