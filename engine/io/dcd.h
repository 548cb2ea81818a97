/* DCD trajectories (CHARMM/NAMD binary layout, as VMD, MDTraj, MDAnalysis and
 * OpenMM read and write them): a writer for `vkmd run`, an appender for
 * checkpoint restarts, and a reader for tests and viewers.
 *
 * Layout written (little-endian, every record framed by 32-bit Fortran
 * markers holding the record's byte length):
 *   84 | "CORD" ICNTRL[20] | 84        ICNTRL[0] NSET frames, [1] ISTART step
 *                                      of the first frame, [2] NSAVC steps
 *                                      between frames, [3] NSTEP step of the
 *                                      last frame, [9] DELTA (float, AKMA time
 *                                      units: dt_fs / 48.88821), [10] 1 when
 *                                      frames carry a unit cell, [19] 24
 *                                      (CHARMM version; the CHARMM flavour)
 *   4 + 80 n | n | n title lines of 80 characters | 4 + 80 n
 *   4 | NATOM | 4
 * then per frame: 48 | a gamma b beta alpha c (6 doubles, A and degrees;
 * only when periodic) | 48, and 4N | X (N floats, A) | 4N, the same for Y, Z.
 *
 * NSET and NSTEP are rewritten after every appended frame and both are
 * flushed, so a run killed at any point leaves a file whose header counts
 * the frames it holds (or one fewer, when killed between the two writes;
 * readers go by the file size). The reader also accepts the X-PLOR flavour
 * (ICNTRL[19] = 0: double DELTA, no unit cell); it refuses big-endian files,
 * 64-bit record markers, fixed atoms and 4-D frames (VKMD_ERROR_UNSUPPORTED).
 * Unit cells carry the box's lengths and angles (a triclinic box's angles as
 * it was read, in degrees); the reader takes angles in degrees or, when all
 * three lie in [-1, 1], as cosines (newer CHARMM, NAMD, VMD), as VMD does.
 * Lengths and angles that describe no cell are VKMD_ERROR_PARSE. */
#ifndef VKMD_IO_DCD_H
#define VKMD_IO_DCD_H

#include "core/result.h"
#include "system/system.h"

#include <stdint.h>

/* One AKMA time unit in fs (CHARMM's DELTA unit: sqrt(A^2 amu / (kcal/mol))). */
#define VKMD_DCD_AKMA_FS 48.88821

/* What a DCD file describes. Zero means the default where one is given. */
typedef struct vkmd_dcd_desc {
    int32_t atom_count;      /* > 0, required */
    int periodic;            /* 1: every frame carries a unit cell (default 0) */
    double dt_fs;            /* integration time step in fs (default 0: DELTA 0) */
    int32_t steps_per_frame; /* NSAVC (default 1) */
    int64_t first_step;      /* step of the first frame, ISTART (default 0) */
    const char *title;       /* title line, cut to 80 characters (default "vkmd") */
} vkmd_dcd_desc;

/* What vkmd_dcd_read_info finds in a file. */
typedef struct vkmd_dcd_info {
    int32_t atom_count;
    int32_t frame_count;     /* complete frames in the file (by its size) */
    int32_t header_frames;   /* NSET as stored in the header */
    int periodic;            /* frames carry a unit cell */
    int charmm;              /* 1: CHARMM flavour (ICNTRL[19] != 0); 0: X-PLOR */
    double dt_fs;            /* DELTA converted to fs */
    int32_t steps_per_frame; /* NSAVC */
    int64_t first_step;      /* ISTART */
    int64_t last_step;       /* NSTEP */
    char title[81];          /* first title line, trailing spaces cut */
    int64_t header_bytes;    /* offset of the first frame */
    int64_t frame_bytes;     /* bytes of one frame */
    int64_t trailing_bytes;  /* bytes after the last complete frame (a cut-off frame) */
} vkmd_dcd_info;

typedef struct vkmd_dcd_writer vkmd_dcd_writer;
typedef struct vkmd_dcd_reader vkmd_dcd_reader;

/* Creates (or truncates) `path` and writes the header with NSET 0. The
 * writer owns the open file until vkmd_dcd_writer_close.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (atom_count <= 0 or too large for
 * 32-bit records, negative or oversized first_step or steps_per_frame,
 * non-finite dt_fs), VKMD_ERROR_IO (cannot create or write, e.g. disk full),
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_dcd_writer_create(const char *path, const vkmd_dcd_desc *desc,
                                   vkmd_dcd_writer **out_w);

/* Reopens a DCD this writer produced, to go on appending (checkpoint
 * restarts). The file's atom count and unit-cell flag must equal the desc's;
 * a non-zero desc->steps_per_frame or desc->dt_fs must equal the file's
 * (DELTA is stored as a float: compared to 1e-6 relative). first_step and
 * title are taken from the file. A cut-off last frame (trailing bytes of a
 * run killed mid-frame) is truncated away and NSET is set to the complete
 * frames. Errors: VKMD_ERROR_IO (missing or unwritable file),
 * VKMD_ERROR_PARSE (not a DCD, malformed header: byte offset named),
 * VKMD_ERROR_UNSUPPORTED (a DCD flavour this reader refuses, see above),
 * VKMD_ERROR_INVALID_ARGUMENT (a mismatch, both values named). */
vkmd_result vkmd_dcd_writer_open_append(const char *path, const vkmd_dcd_desc *desc,
                                        vkmd_dcd_writer **out_w);

/* Appends one frame: xyz [3 * atom_count] in A (x0 y0 z0 x1 ...), stored as
 * floats; box is required when periodic (its lengths become the unit cell)
 * and ignored otherwise. Writes the frame, flushes, rewrites NSET and NSTEP,
 * flushes again. Errors: VKMD_ERROR_NUMERIC (a non-finite coordinate or box
 * length, or a value beyond float range: nothing is written, the atom is
 * named), VKMD_ERROR_INVALID_ARGUMENT (NULL box for a periodic file, a
 * non-periodic or non-positive box), VKMD_ERROR_IO (short write, disk full:
 * the file then ends in a partial frame that open_append truncates). */
vkmd_result vkmd_dcd_writer_append(vkmd_dcd_writer *w, const double *xyz, const vkmd_box *box);

/* Frames in the file (NSET). */
int32_t vkmd_dcd_writer_frame_count(const vkmd_dcd_writer *w);

/* Drops every frame from index `keep` on (a restart from a checkpoint older
 * than the last frames). keep > frame count is VKMD_ERROR_INVALID_ARGUMENT;
 * VKMD_ERROR_IO if truncating fails. */
vkmd_result vkmd_dcd_writer_truncate(vkmd_dcd_writer *w, int32_t keep);

/* Closes the file and frees the writer. NULL is fine. Returns
 * VKMD_ERROR_IO if the final close reports a failure. */
vkmd_result vkmd_dcd_writer_close(vkmd_dcd_writer *w);

/* Opens `path` and reads its header. Errors: VKMD_ERROR_IO,
 * VKMD_ERROR_PARSE ("path: byte N: ..."), VKMD_ERROR_UNSUPPORTED,
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_dcd_reader_open(const char *path, vkmd_dcd_reader **out_r);

/* The header of an open reader (owned by the reader). */
const vkmd_dcd_info *vkmd_dcd_reader_info(const vkmd_dcd_reader *r);

/* Reads frame `index` (0-based, < frame_count) into out_xyz [3 * atom_count]
 * (A) and, when not NULL, out_box (periodic 0 for a file without unit cell).
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (index out of range), VKMD_ERROR_IO,
 * VKMD_ERROR_PARSE (wrong record marker, byte offset named),
 * VKMD_ERROR_UNSUPPORTED (unit-cell angles other than 90 degrees). */
vkmd_result vkmd_dcd_reader_frame(vkmd_dcd_reader *r, int32_t index, double *out_xyz,
                                  vkmd_box *out_box);

/* Closes the file and frees the reader. NULL is fine. */
void vkmd_dcd_reader_close(vkmd_dcd_reader *r);

/* One-shot forms of the reader: the header of `path`, or one frame of it. */
vkmd_result vkmd_dcd_read_info(const char *path, vkmd_dcd_info *out_info);
vkmd_result vkmd_dcd_read_frame(const char *path, int32_t index, double *out_xyz,
                                vkmd_box *out_box);

#endif
