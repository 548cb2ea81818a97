/* DCD writer, appender and reader (see dcd.h). Every record is composed in
 * memory byte by byte in little-endian order, so the files are the same on
 * any host, and a frame goes out in one fwrite: a short write is then one
 * failed call, reported with errno. The header's NSET and NSTEP live at fixed
 * offsets (8 and 20), which is how VMD and OpenMM update them in place. */
#include "io/dcd.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

enum {
    HEADER_RECORD = 84, /* "CORD" + 20 int32 */
    TITLE_LEN = 80,
    NSET_OFFSET = 8,   /* marker 4 + "CORD" 4 */
    NSTEP_OFFSET = 20, /* NSET, ISTART, NSAVC before it */
    CELL_RECORD = 48,  /* 6 doubles */
    CHARMM_VERSION = 24,
    TITLE_LINES = 2, /* the caller's title and the writer's */
    /* Header as written: CORD record, title record, atom count record. */
    HEADER_BYTES = (8 + HEADER_RECORD) + (8 + 4 + TITLE_LEN * TITLE_LINES) + (8 + 4),
};

/* Fortran-record framing of a payload of n bytes. */
#define RECORD_BYTES(n) (8 + (int64_t)(n))

struct vkmd_dcd_writer {
    FILE *f;
    char *path;
    int32_t atom_count;
    int periodic;
    int32_t steps_per_frame;
    int32_t first_step;
    int32_t frame_count;
    int64_t header_bytes;
    int64_t frame_bytes;
    unsigned char *frame; /* [frame_bytes] composed frame */
    int failed;           /* a write failed and was reported: close adds no second message */
};

struct vkmd_dcd_reader {
    FILE *f;
    char *path;
    vkmd_dcd_info info;
    unsigned char *frame; /* [info.frame_bytes] */
};

/* ------------------------------------------------------------ byte order */

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static void put_i32(unsigned char *p, int32_t v)
{
    put_u32(p, (uint32_t)v);
}

static void put_f32(unsigned char *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put_u32(p, u);
}

static void put_f64(unsigned char *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    put_u32(p, (uint32_t)u);
    put_u32(p + 4, (uint32_t)(u >> 32));
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int32_t get_i32(const unsigned char *p)
{
    uint32_t u = get_u32(p);
    int32_t v;
    memcpy(&v, &u, 4);
    return v;
}

static float get_f32(const unsigned char *p)
{
    uint32_t u = get_u32(p);
    float v;
    memcpy(&v, &u, 4);
    return v;
}

static double get_f64(const unsigned char *p)
{
    uint64_t u = (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
    double v;
    memcpy(&v, &u, 8);
    return v;
}

/* ------------------------------------------------------------ file helpers */

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static vkmd_result write_at(FILE *f, const char *path, int64_t offset, const void *data,
                            size_t size, const char *what)
{
    if (fseeko(f, (off_t)offset, SEEK_SET) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot seek to byte %lld to write the %s: %s", path,
                         (long long)offset, what, strerror(errno));
    errno = 0;
    size_t n = fwrite(data, 1, size, f);
    if (n != size)
        return vkmd_fail(
            VKMD_ERROR_IO, "%s: short write of the %s at byte %lld (%zu of %zu bytes): %s", path,
            what, (long long)offset, n, size, errno ? strerror(errno) : "unknown error");
    if (fflush(f) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: writing the %s at byte %lld failed: %s", path, what,
                         (long long)offset, strerror(errno));
    return VKMD_OK;
}

/* Reads exactly `size` bytes at `offset`; running out of file is a parse
 * error naming `what` and the offset. */
static vkmd_result read_at(FILE *f, const char *path, int64_t offset, void *data, size_t size,
                           const char *what)
{
    if (fseeko(f, (off_t)offset, SEEK_SET) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot seek to byte %lld: %s", path, (long long)offset,
                         strerror(errno));
    size_t n = fread(data, 1, size, f);
    if (n != size) {
        if (ferror(f))
            return vkmd_fail(VKMD_ERROR_IO, "%s: read error at byte %lld: %s", path,
                             (long long)offset, strerror(errno));
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s: byte %lld: file ends inside the %s (%zu of %zu bytes present)", path,
                         (long long)offset, what, n, size);
    }
    return VKMD_OK;
}

/* Checks a Fortran record marker read at `offset`. */
static vkmd_result expect_marker(const char *path, int64_t offset, const unsigned char *p,
                                 int64_t want, const char *what)
{
    int32_t got = get_i32(p);
    if (got != want)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s: byte %lld: record marker of the %s is %d, expected %lld", path,
                         (long long)offset, what, got, (long long)want);
    return VKMD_OK;
}

/* NSTEP: the step of the last frame (CHARMM's step count when the run began at
 * step 0 with ISTART = NSAVC), saturated to 32 bits. */
static int32_t last_step(int32_t first_step, int32_t steps_per_frame, int32_t frames)
{
    if (frames <= 0)
        return 0;
    int64_t s = (int64_t)first_step + (int64_t)(frames - 1) * steps_per_frame;
    return s > INT32_MAX ? INT32_MAX : (int32_t)s;
}

static vkmd_result write_counts(vkmd_dcd_writer *w)
{
    unsigned char b[4];
    vkmd_result res;
    put_i32(b, w->frame_count);
    if ((res = write_at(w->f, w->path, NSET_OFFSET, b, 4, "frame count (NSET)")) != VKMD_OK)
        return res;
    put_i32(b, last_step(w->first_step, w->steps_per_frame, w->frame_count));
    return write_at(w->f, w->path, NSTEP_OFFSET, b, 4, "last step (NSTEP)");
}

static int64_t frame_bytes_of(int32_t atoms, int periodic)
{
    return (periodic ? RECORD_BYTES(CELL_RECORD) : 0) + 3 * RECORD_BYTES(4 * (int64_t)atoms);
}

/* Largest atom count whose coordinate records fit a 32-bit marker. */
#define MAX_ATOMS ((INT32_MAX - 8) / 4)

/* ------------------------------------------------------------ header */

static void compose_header(unsigned char h[HEADER_BYTES], const vkmd_dcd_desc *d,
                           int32_t steps_per_frame, const char *title)
{
    memset(h, 0, HEADER_BYTES);
    unsigned char *p = h;
    put_i32(p, HEADER_RECORD);
    memcpy(p + 4, "CORD", 4);
    unsigned char *ic = p + 8; /* ICNTRL[20] */
    put_i32(ic + 0 * 4, 0);    /* NSET: no frames yet */
    put_i32(ic + 1 * 4, (int32_t)d->first_step);
    put_i32(ic + 2 * 4, steps_per_frame);
    put_i32(ic + 3 * 4, 0); /* NSTEP */
    put_f32(ic + 9 * 4, (float)(d->dt_fs / VKMD_DCD_AKMA_FS));
    put_i32(ic + 10 * 4, d->periodic ? 1 : 0);
    put_i32(ic + 19 * 4, CHARMM_VERSION);
    put_i32(p + 4 + HEADER_RECORD, HEADER_RECORD);
    p += RECORD_BYTES(HEADER_RECORD);

    const int32_t lines = TITLE_LINES;
    put_i32(p, 4 + TITLE_LEN * lines);
    put_i32(p + 4, lines);
    char *t = (char *)p + 8;
    memset(t, ' ', (size_t)TITLE_LEN * lines);
    for (int i = 0; i < TITLE_LEN && title[i]; ++i)
        t[i] = (title[i] >= 32 && title[i] < 127) ? title[i] : '?';
    char line2[TITLE_LEN + 1];
    int n = snprintf(line2, sizeof line2, "REMARKS written by vkmd %s", VKMD_VERSION);
    memcpy(t + TITLE_LEN, line2, (size_t)(n < TITLE_LEN ? n : TITLE_LEN));
    put_i32(p + 8 + TITLE_LEN * lines, 4 + TITLE_LEN * lines);
    p += RECORD_BYTES(4 + TITLE_LEN * lines);

    put_i32(p, 4);
    put_i32(p + 4, d->atom_count);
    put_i32(p + 8, 4);
}

/* Parses the header of an open DCD into `info` (frame counts from the size). */
static vkmd_result parse_header(FILE *f, const char *path, vkmd_dcd_info *info)
{
    memset(info, 0, sizeof *info);
    unsigned char h[RECORD_BYTES(HEADER_RECORD)];
    vkmd_result res = read_at(f, path, 0, h, 4, "first record marker");
    if (res != VKMD_OK)
        return res;
    const uint32_t first = get_u32(h);
    const uint32_t swapped =
        (first >> 24) | ((first >> 8) & 0xff00u) | ((first << 8) & 0xff0000u) | (first << 24);
    if (first != HEADER_RECORD && swapped == HEADER_RECORD)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: big-endian DCD (byte-swapped record markers); only little-endian "
                         "files are read",
                         path);
    if (first != HEADER_RECORD)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s: byte 0: not a DCD file (first record marker %u, expected 84)", path,
                         first);
    if ((res = read_at(f, path, 0, h, 12, "header record")) != VKMD_OK)
        return res;
    if (get_u32(h + 4) == 0 && memcmp(h + 8, "CORD", 4) == 0)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: DCD with 64-bit record markers; only 32-bit markers are read", path);
    if ((res = read_at(f, path, 0, h, sizeof h, "header record")) != VKMD_OK)
        return res;
    if (memcmp(h + 4, "CORD", 4) != 0)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: byte 4: expected \"CORD\", found \"%.4s\"", path,
                         (const char *)h + 4);
    if ((res = expect_marker(path, 4 + HEADER_RECORD, h + 4 + HEADER_RECORD, HEADER_RECORD,
                             "header record")) != VKMD_OK)
        return res;
    const unsigned char *ic = h + 8;
    info->header_frames = get_i32(ic);
    info->first_step = get_i32(ic + 4);
    info->steps_per_frame = get_i32(ic + 8);
    info->last_step = get_i32(ic + 12);
    info->charmm = get_i32(ic + 19 * 4) != 0;
    if (get_i32(ic + 8 * 4) != 0)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: byte 40: DCD with %d fixed atoms (NAMNF); not supported", path,
                         get_i32(ic + 8 * 4));
    if (info->charmm) {
        info->dt_fs = (double)get_f32(ic + 9 * 4) * VKMD_DCD_AKMA_FS;
        info->periodic = get_i32(ic + 10 * 4) != 0;
        if (get_i32(ic + 11 * 4) != 0)
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                             "%s: byte 52: DCD with 4-D coordinates; not supported", path);
    } else {
        info->dt_fs = get_f64(ic + 9 * 4) * VKMD_DCD_AKMA_FS;
        info->periodic = 0;
    }
    if (info->header_frames < 0)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: byte 8: negative frame count NSET %d", path,
                         info->header_frames);

    /* Title record. */
    int64_t off = RECORD_BYTES(HEADER_RECORD);
    unsigned char m[8];
    if ((res = read_at(f, path, off, m, 8, "title record")) != VKMD_OK)
        return res;
    int32_t title_len = get_i32(m), lines = get_i32(m + 4);
    if (lines < 0 || title_len != 4 + (int64_t)TITLE_LEN * lines)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s: byte %lld: title record of %d bytes for %d lines of 80 characters",
                         path, (long long)off, title_len, lines);
    if (lines > 0) {
        char t[TITLE_LEN + 1];
        if ((res = read_at(f, path, off + 8, t, TITLE_LEN, "title record")) != VKMD_OK)
            return res;
        t[TITLE_LEN] = '\0';
        int n = TITLE_LEN;
        while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\0'))
            --n;
        memcpy(info->title, t, (size_t)n);
        info->title[n] = '\0';
    }
    off += 4 + title_len;
    if ((res = read_at(f, path, off, m, 4, "title record")) != VKMD_OK)
        return res;
    if ((res = expect_marker(path, off, m, title_len, "title record")) != VKMD_OK)
        return res;
    off += 4;

    /* Atom count. */
    unsigned char a[12];
    if ((res = read_at(f, path, off, a, 12, "atom count record")) != VKMD_OK)
        return res;
    if ((res = expect_marker(path, off, a, 4, "atom count record")) != VKMD_OK ||
        (res = expect_marker(path, off + 8, a + 8, 4, "atom count record")) != VKMD_OK)
        return res;
    info->atom_count = get_i32(a + 4);
    if (info->atom_count <= 0 || info->atom_count > MAX_ATOMS)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: byte %lld: atom count %d out of range", path,
                         (long long)off + 4, info->atom_count);
    off += 12;
    info->header_bytes = off;
    info->frame_bytes = frame_bytes_of(info->atom_count, info->periodic);

    if (fseeko(f, 0, SEEK_END) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot seek to the end: %s", path, strerror(errno));
    int64_t size = (int64_t)ftello(f);
    if (size < 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot tell the size: %s", path, strerror(errno));
    int64_t frames = (size - off) / info->frame_bytes;
    if (frames > INT32_MAX)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "%s: more than 2^31 frames", path);
    info->frame_count = (int32_t)frames;
    info->trailing_bytes = (size - off) - frames * info->frame_bytes;
    return VKMD_OK;
}

/* ------------------------------------------------------------ writer */

static void writer_free(vkmd_dcd_writer *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    free(w->path);
    free(w->frame);
    free(w);
}

static vkmd_result writer_alloc(const char *path, int32_t atoms, int periodic,
                                vkmd_dcd_writer **out_w)
{
    vkmd_dcd_writer *w = calloc(1, sizeof *w);
    if (!w)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: DCD writer", path);
    w->atom_count = atoms;
    w->periodic = periodic;
    w->frame_bytes = frame_bytes_of(atoms, periodic);
    w->path = dup_str(path);
    w->frame = malloc((size_t)w->frame_bytes);
    if (!w->path || !w->frame) {
        writer_free(w);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: DCD frame buffer of %lld bytes", path,
                         (long long)frame_bytes_of(atoms, periodic));
    }
    *out_w = w;
    return VKMD_OK;
}

vkmd_result vkmd_dcd_writer_create(const char *path, const vkmd_dcd_desc *desc,
                                   vkmd_dcd_writer **out_w)
{
    *out_w = NULL;
    if (desc->atom_count <= 0 || desc->atom_count > MAX_ATOMS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: DCD atom count %d out of range (1 to %d)", path, desc->atom_count,
                         MAX_ATOMS);
    if (desc->first_step < 0 || desc->first_step > INT32_MAX)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: DCD first step %lld does not fit the 32-bit ISTART field", path,
                         (long long)desc->first_step);
    if (desc->steps_per_frame < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: DCD steps per frame %d is negative",
                         path, desc->steps_per_frame);
    if (!isfinite(desc->dt_fs) || desc->dt_fs < 0 || desc->dt_fs / VKMD_DCD_AKMA_FS > FLT_MAX)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: DCD time step %g fs is not valid", path,
                         desc->dt_fs);
    vkmd_dcd_writer *w = NULL;
    vkmd_result res = writer_alloc(path, desc->atom_count, desc->periodic ? 1 : 0, &w);
    if (res != VKMD_OK)
        return res;
    w->steps_per_frame = desc->steps_per_frame > 0 ? desc->steps_per_frame : 1;
    w->first_step = (int32_t)desc->first_step;
    w->header_bytes = HEADER_BYTES;

    unsigned char h[HEADER_BYTES];
    compose_header(h, desc, w->steps_per_frame,
                   desc->title && desc->title[0] ? desc->title : "vkmd");

    w->f = fopen(path, "w+b");
    if (!w->f) {
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", path, strerror(errno));
        writer_free(w);
        return res;
    }
    if ((res = write_at(w->f, path, 0, h, sizeof h, "header")) != VKMD_OK) {
        writer_free(w);
        return res;
    }
    *out_w = w;
    return VKMD_OK;
}

vkmd_result vkmd_dcd_writer_open_append(const char *path, const vkmd_dcd_desc *desc,
                                        vkmd_dcd_writer **out_w)
{
    *out_w = NULL;
    FILE *f = fopen(path, "r+b");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open to append: %s", path, strerror(errno));
    vkmd_dcd_info info;
    vkmd_dcd_writer *w = NULL;
    vkmd_result res = parse_header(f, path, &info);
    if (res != VKMD_OK)
        goto fail;
    if (!info.charmm) {
        res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                        "%s: X-PLOR-style DCD (no CHARMM version); only CHARMM-style files are "
                        "appended to",
                        path);
        goto fail;
    }
    if (info.atom_count != desc->atom_count) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "%s: DCD has %d atoms, the system to append has %d", path, info.atom_count,
                        desc->atom_count);
        goto fail;
    }
    if (info.periodic != (desc->periodic ? 1 : 0)) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "%s: DCD %s a unit cell, the system to append is %s", path,
                        info.periodic ? "has" : "has no", desc->periodic ? "periodic" : "not");
        goto fail;
    }
    if (desc->steps_per_frame > 0 && desc->steps_per_frame != info.steps_per_frame) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "%s: DCD has %d steps per frame, the run to append %d", path,
                        info.steps_per_frame, desc->steps_per_frame);
        goto fail;
    }
    if (desc->dt_fs > 0 && fabs(info.dt_fs - desc->dt_fs) > 1e-6 * desc->dt_fs) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "%s: DCD time step is %.6g fs, the run to append uses %.6g fs", path,
                        info.dt_fs, desc->dt_fs);
        goto fail;
    }
    if ((res = writer_alloc(path, info.atom_count, info.periodic, &w)) != VKMD_OK)
        goto fail;
    w->f = f;
    f = NULL;
    w->steps_per_frame = info.steps_per_frame > 0 ? info.steps_per_frame : 1;
    w->first_step = (int32_t)info.first_step;
    w->header_bytes = info.header_bytes;
    w->frame_count = info.frame_count;
    /* Drops a cut-off last frame and makes NSET count the frames there are. */
    if ((res = vkmd_dcd_writer_truncate(w, info.frame_count)) != VKMD_OK)
        goto fail;
    *out_w = w;
    return VKMD_OK;
fail:
    if (f)
        fclose(f);
    writer_free(w);
    return res;
}

vkmd_result vkmd_dcd_writer_append(vkmd_dcd_writer *w, const double *xyz, const vkmd_box *box)
{
    const int32_t n = w->atom_count;
    for (int32_t i = 0; i < 3 * n; ++i) {
        if (!isfinite(xyz[i]) || fabs(xyz[i]) > FLT_MAX)
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "%s: frame %d: atom %d coordinate %c = %g is not a finite float; "
                             "frame not written",
                             w->path, w->frame_count, i / 3, "xyz"[i % 3], xyz[i]);
    }
    unsigned char *p = w->frame;
    if (w->periodic) {
        if (!box || !box->periodic)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: frame %d: the DCD has a unit cell but no periodic box was given",
                             w->path, w->frame_count);
        for (int k = 0; k < 3; ++k)
            if (!isfinite(box->len[k]) || !(box->len[k] > 0))
                return vkmd_fail(VKMD_ERROR_NUMERIC,
                                 "%s: frame %d: box length %c = %g is not finite and positive; "
                                 "frame not written",
                                 w->path, w->frame_count, "abc"[k], box -> len[k]);
        /* CHARMM order: A, gamma, B, beta, alpha, C (degrees, 90 = orthorhombic;
         * VMD and MDTraj read degrees whenever a value lies outside [-1, 1]). */
        const double *ang = box->angle_deg;
        const int tri = box->triclinic; /* rectangular boxes may leave angle_deg unset */
        const double cell[6] = {box->len[0],         tri ? ang[2] : 90.0, box->len[1],
                                tri ? ang[1] : 90.0, tri ? ang[0] : 90.0, box->len[2]};
        put_i32(p, CELL_RECORD);
        for (int k = 0; k < 6; ++k)
            put_f64(p + 4 + 8 * k, cell[k]);
        put_i32(p + 4 + CELL_RECORD, CELL_RECORD);
        p += RECORD_BYTES(CELL_RECORD);
    }
    for (int k = 0; k < 3; ++k) {
        put_i32(p, 4 * n);
        for (int32_t i = 0; i < n; ++i)
            put_f32(p + 4 + 4 * (size_t)i, (float)xyz[3 * (size_t)i + k]);
        put_i32(p + 4 + 4 * (size_t)n, 4 * n);
        p += RECORD_BYTES(4 * (int64_t)n);
    }
    const int64_t at = w->header_bytes + (int64_t)w->frame_count * w->frame_bytes;
    vkmd_result res = write_at(w->f, w->path, at, w->frame, (size_t)w->frame_bytes, "frame");
    if (res == VKMD_OK) {
        ++w->frame_count;
        res = write_counts(w);
    }
    w->failed |= res != VKMD_OK;
    return res;
}

int32_t vkmd_dcd_writer_frame_count(const vkmd_dcd_writer *w)
{
    return w->frame_count;
}

vkmd_result vkmd_dcd_writer_truncate(vkmd_dcd_writer *w, int32_t keep)
{
    if (keep < 0 || keep > w->frame_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: cannot keep %d frames of a DCD that has %d", w->path, keep,
                         w->frame_count);
    if (fflush(w->f) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: flush failed: %s", w->path, strerror(errno));
    const int64_t size = w->header_bytes + (int64_t)keep * w->frame_bytes;
    if (ftruncate(fileno(w->f), (off_t)size) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot truncate to %lld bytes: %s", w->path,
                         (long long)size, strerror(errno));
    w->frame_count = keep;
    return write_counts(w);
}

vkmd_result vkmd_dcd_writer_close(vkmd_dcd_writer *w)
{
    if (!w)
        return VKMD_OK;
    vkmd_result res = VKMD_OK;
    if (w->f) {
        /* After a reported write error (a full disk) the stream's error flag
         * is set and closing fails too: keep the first, precise message. */
        errno = 0;
        int err = ferror(w->f);
        if (fclose(w->f) != 0 || err)
            res = w->failed ? VKMD_ERROR_IO
                            : vkmd_fail(VKMD_ERROR_IO, "%s: closing the DCD failed: %s", w->path,
                                        errno ? strerror(errno) : "a write failed earlier");
        w->f = NULL;
    }
    writer_free(w);
    return res;
}

/* ------------------------------------------------------------ reader */

void vkmd_dcd_reader_close(vkmd_dcd_reader *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    free(r->path);
    free(r->frame);
    free(r);
}

vkmd_result vkmd_dcd_reader_open(const char *path, vkmd_dcd_reader **out_r)
{
    *out_r = NULL;
    vkmd_dcd_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->path = dup_str(path))) {
        vkmd_dcd_reader_close(r);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: DCD reader", path);
    }
    r->f = fopen(path, "rb");
    if (!r->f) {
        vkmd_result res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
        vkmd_dcd_reader_close(r);
        return res;
    }
    vkmd_result res = parse_header(r->f, path, &r->info);
    /* The frame buffer only when there is a frame: the header's atom count
     * alone may claim gigabytes that the file does not hold. */
    if (res == VKMD_OK && r->info.frame_count > 0 &&
        !(r->frame = malloc((size_t)r->info.frame_bytes)))
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: DCD frame buffer of %lld bytes", path,
                        (long long)r->info.frame_bytes);
    if (res != VKMD_OK) {
        vkmd_dcd_reader_close(r);
        return res;
    }
    *out_r = r;
    return VKMD_OK;
}

const vkmd_dcd_info *vkmd_dcd_reader_info(const vkmd_dcd_reader *r)
{
    return &r->info;
}

/* Unit-cell angles given in degrees or (newer CHARMM, NAMD >= 2.5, VMD's
 * writer) as cosines: cosines when all three lie in [-1, 1], as VMD's
 * dcdplugin decides. */
static void cell_angles_deg(const double c[6], double out_deg[3])
{
    const double raw[3] = {c[4], c[3], c[1]}; /* alpha, beta, gamma */
    const int cosines = fabs(raw[0]) <= 1.0 && fabs(raw[1]) <= 1.0 && fabs(raw[2]) <= 1.0;
    for (int k = 0; k < 3; ++k)
        out_deg[k] = cosines ? 90.0 - asin(raw[k]) * 180.0 / M_PI : raw[k];
}

vkmd_result vkmd_dcd_reader_frame(vkmd_dcd_reader *r, int32_t index, double *out_xyz,
                                  vkmd_box *out_box)
{
    const vkmd_dcd_info *in = &r->info;
    if (index < 0 || index >= in->frame_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: frame %d requested, the DCD has %d",
                         r->path, index, in->frame_count);
    const int64_t at = in->header_bytes + (int64_t)index * in->frame_bytes;
    vkmd_result res = read_at(r->f, r->path, at, r->frame, (size_t)in->frame_bytes, "frame");
    if (res != VKMD_OK)
        return res;
    const unsigned char *p = r->frame;
    int64_t off = at;
    vkmd_box box = {0};
    if (in->periodic) {
        if ((res = expect_marker(r->path, off, p, CELL_RECORD, "unit cell")) != VKMD_OK ||
            (res = expect_marker(r->path, off + 4 + CELL_RECORD, p + 4 + CELL_RECORD, CELL_RECORD,
                                 "unit cell")) != VKMD_OK)
            return res;
        double c[6];
        for (int k = 0; k < 6; ++k)
            c[k] = get_f64(p + 4 + 8 * k);
        const double len[3] = {c[0], c[2], c[5]};
        if (len[0] == 0 && len[1] == 0 && len[2] == 0) {
            box.periodic = 0; /* some writers store a zero cell for "no box" */
        } else {
            for (int k = 0; k < 3; ++k)
                if (!isfinite(len[k]) || !(len[k] > 0))
                    return vkmd_fail(VKMD_ERROR_PARSE,
                                     "%s: byte %lld: frame %d: unit-cell length %c = %g", r->path,
                                     (long long)off + 4, index, "abc"[k], len[k]);
            double ang[3];
            cell_angles_deg(c, ang);
            char where[600];
            snprintf(where, sizeof where, "%s: frame %d: unit cell", r->path, index);
            if ((res = vkmd_box_set(&box, len, ang, where)) != VKMD_OK)
                return res;
        }
        p += RECORD_BYTES(CELL_RECORD);
        off += RECORD_BYTES(CELL_RECORD);
    }
    const int32_t n = in->atom_count;
    for (int k = 0; k < 3; ++k) {
        const char *what = k == 0 ? "X record" : k == 1 ? "Y record" : "Z record";
        if ((res = expect_marker(r->path, off, p, 4 * (int64_t)n, what)) != VKMD_OK ||
            (res = expect_marker(r->path, off + 4 + 4 * (int64_t)n, p + 4 + 4 * (size_t)n,
                                 4 * (int64_t)n, what)) != VKMD_OK)
            return res;
        for (int32_t i = 0; i < n; ++i)
            out_xyz[3 * (size_t)i + k] = (double)get_f32(p + 4 + 4 * (size_t)i);
        p += RECORD_BYTES(4 * (int64_t)n);
        off += RECORD_BYTES(4 * (int64_t)n);
    }
    if (out_box)
        *out_box = box;
    return VKMD_OK;
}

vkmd_result vkmd_dcd_read_info(const char *path, vkmd_dcd_info *out_info)
{
    vkmd_dcd_reader *r = NULL;
    vkmd_result res = vkmd_dcd_reader_open(path, &r);
    if (res == VKMD_OK)
        *out_info = r->info;
    vkmd_dcd_reader_close(r);
    return res;
}

vkmd_result vkmd_dcd_read_frame(const char *path, int32_t index, double *out_xyz, vkmd_box *out_box)
{
    vkmd_dcd_reader *r = NULL;
    vkmd_result res = vkmd_dcd_reader_open(path, &r);
    if (res == VKMD_OK)
        res = vkmd_dcd_reader_frame(r, index, out_xyz, out_box);
    vkmd_dcd_reader_close(r);
    return res;
}
