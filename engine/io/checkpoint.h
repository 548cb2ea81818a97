/* Checkpoints: the exact state of a run, to continue it bitwise on the same
 * device (vkmd run --restart).
 *
 * File layout (little-endian, version 2, or 3 for a triclinic box; version
 * 1, without the barostat tail, is still read):
 *   header (40 bytes): magic "VKMDCHK\0", u32 version, u32 endian marker
 *   0x01020304, u64 payload bytes, u64 FNV-1a-64 checksum of the payload,
 *   u64 reserved (0);
 *   payload: i32 atom_count, i32 periodic, u64 system fingerprint,
 *   i64 step (of the run, after minimisation/equilibration), i64 md_step
 *   (the engine's step counter, which keys the Langevin noise), f64 time_ps,
 *   f64 box[3] (A), u64 seed, u32 settings bytes + settings text
 *   ("key value" lines written by the caller), f64 positions[3N] (A),
 *   f64 velocities[3N] (A/fs); version 2: i32 barostat (0: none), the Monte
 *   Carlo barostat's f64 step sizes[3] (A^3), i64 attempts[3], i64
 *   accepted[3], i32 window attempts[3], i32 window accepted[3]
 *   (sim/barostat.h's state; the box is box[3] above); version 3 only (a
 *   triclinic box; box[3] holds its edge lengths): i32 triclinic = 1, f64
 *   angles[3] (degrees), f64 vectors[3][3] (A; the reduced vectors as the
 *   run held them, so the cell round-trips bit for bit). A rectangular box
 *   is written as version 2, byte for byte as before.
 * Positions and velocities are the device's fp32 values widened to double,
 * so a round trip is exact.
 *
 * vkmd_checkpoint_write writes FILE.tmp, flushes and fsyncs it, renames it
 * over FILE and fsyncs the directory: a crash at any moment leaves either
 * the old checkpoint or the new one, never a half-written file.
 * vkmd_checkpoint_read refuses, naming the file and the problem, a file that
 * is truncated, has a wrong magic, version or endianness, fails its
 * checksum, or is internally inconsistent. */
#ifndef VKMD_IO_CHECKPOINT_H
#define VKMD_IO_CHECKPOINT_H

#include "core/result.h"
#include "system/system.h"

#include <stddef.h>
#include <stdint.h>

#define VKMD_CHECKPOINT_VERSION      3u /* the newest read; rectangular boxes write 2 */
#define VKMD_CHECKPOINT_HEADER_BYTES 40

typedef struct vkmd_checkpoint {
    int32_t atom_count;
    int32_t periodic;
    uint64_t fingerprint; /* vkmd_checkpoint_fingerprint of the system */
    int64_t step;         /* steps of the run done */
    int64_t md_step;      /* engine step counter (noise key) */
    double time_ps;
    double box[3]; /* A */
    uint64_t seed;
    char *settings;     /* NUL-terminated "key value\n" lines; owned */
    double *positions;  /* [3 * atom_count] A; owned */
    double *velocities; /* [3 * atom_count] A/fs; owned */
    /* the barostat's state (version 2; zeros from version 1 files) */
    int32_t barostat; /* 0: none recorded */
    double baro_step_a3[3];
    int64_t baro_attempts[3], baro_accepted[3];
    int32_t baro_window_attempts[3], baro_window_accepted[3];
    /* the cell of a triclinic box (version 3; zeros otherwise): set and read
     * through vkmd_checkpoint_set_box / vkmd_checkpoint_box */
    int32_t triclinic;
    double box_angle_deg[3];
    double box_vec[3][3];
} vkmd_checkpoint;

/* Stores `box` in c (periodic, box[3] and the triclinic cell). */
void vkmd_checkpoint_set_box(vkmd_checkpoint *c, const vkmd_box *box);

/* The box c holds: non-periodic, rectangular from box[3], or the triclinic
 * cell exactly as it was stored. */
void vkmd_checkpoint_box(const vkmd_checkpoint *c, vkmd_box *out_box);

/* FNV-1a 64 of what defines the system for dynamics: atom count, masses,
 * charges, LJ types and tables, bonds, angles, dihedrals, 1-4 pairs,
 * exclusions, waters. Another system (or the same one with other masses,
 * e.g. another --hmr) gives another fingerprint. */
uint64_t vkmd_checkpoint_fingerprint(const vkmd_system *sys);

/* FNV-1a 64 of `n` bytes, continuing from `h` (start with
 * VKMD_FNV1A64_INIT). */
#define VKMD_FNV1A64_INIT 0xcbf29ce484222325ull
uint64_t vkmd_fnv1a64(uint64_t h, const void *data, size_t n);

/* Writes `c` to `path` atomically (see the file comment). Errors:
 * VKMD_ERROR_IO naming the path and the system error (e.g. "No space left on
 * device"); the previous checkpoint at `path` is then left untouched. */
vkmd_result vkmd_checkpoint_write(const char *path, const vkmd_checkpoint *c);

/* Reads and verifies `path` into `out` (free with vkmd_checkpoint_free).
 * Errors: VKMD_ERROR_IO (cannot open/read), VKMD_ERROR_PARSE (truncated,
 * corrupt, wrong version), each naming the file and the problem. */
vkmd_result vkmd_checkpoint_read(const char *path, vkmd_checkpoint *out);

/* Checks that `c` belongs to `sys` (atom count, fingerprint); the message
 * names `path`. Errors: VKMD_ERROR_INVALID_ARGUMENT. */
vkmd_result vkmd_checkpoint_check_system(const vkmd_checkpoint *c, const vkmd_system *sys,
                                         const char *path);

/* Value of `key` in the settings text (copied into out, NUL-terminated);
 * returns 0 when the key is absent. */
int vkmd_checkpoint_setting(const vkmd_checkpoint *c, const char *key, char *out, size_t size);

/* Frees what `c` owns and zeroes it. Safe on a zeroed struct. */
void vkmd_checkpoint_free(vkmd_checkpoint *c);

#endif
