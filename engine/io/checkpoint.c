/* Checkpoints: see checkpoint.h for the layout and the guarantees. */
#include "io/checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char magic[8] = {'V', 'K', 'M', 'D', 'C', 'H', 'K', 0};
#define ENDIAN_MARK 0x01020304u

uint64_t vkmd_fnv1a64(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t hash_i32(uint64_t h, int32_t v)
{
    return vkmd_fnv1a64(h, &v, sizeof v);
}

static uint64_t hash_f64(uint64_t h, double v)
{
    return vkmd_fnv1a64(h, &v, sizeof v);
}

uint64_t vkmd_checkpoint_fingerprint(const vkmd_system *sys)
{
    uint64_t h = VKMD_FNV1A64_INIT;
    h = hash_i32(h, sys->atom_count);
    for (int32_t i = 0; i < sys->atom_count; ++i) {
        const vkmd_atom *a = &sys->atoms[i];
        h = hash_f64(h, a->mass);
        h = hash_f64(h, a->charge);
        h = hash_i32(h, a->lj_type);
        h = hash_i32(h, a->element);
    }
    const int64_t nlj = (int64_t)sys->lj_type_count * sys->lj_type_count;
    h = hash_i32(h, sys->lj_type_count);
    for (int64_t k = 0; k < nlj; ++k) {
        h = hash_f64(h, sys->lj_a[k]);
        h = hash_f64(h, sys->lj_b[k]);
    }
    h = hash_i32(h, sys->bond_count);
    for (int32_t k = 0; k < sys->bond_count; ++k) {
        const vkmd_bond *b = &sys->bonds[k];
        h = hash_i32(hash_i32(h, b->i), b->j);
        h = hash_f64(hash_f64(h, b->k), b->r0);
    }
    h = hash_i32(h, sys->angle_count);
    for (int32_t k = 0; k < sys->angle_count; ++k) {
        const vkmd_angle *a = &sys->angles[k];
        h = hash_i32(hash_i32(hash_i32(h, a->i), a->j), a->k);
        h = hash_f64(hash_f64(h, a->k_theta), a->theta0);
    }
    h = hash_i32(h, sys->dihedral_count);
    for (int32_t k = 0; k < sys->dihedral_count; ++k) {
        const vkmd_dihedral *d = &sys->dihedrals[k];
        h = hash_i32(hash_i32(hash_i32(hash_i32(h, d->i), d->j), d->k), d->l);
        h = hash_f64(hash_f64(h, d->k_phi), d->phase);
        h = hash_i32(hash_i32(h, d->periodicity), d->improper);
    }
    h = hash_i32(h, sys->pair14_count);
    for (int32_t k = 0; k < sys->pair14_count; ++k) {
        const vkmd_pair14 *p = &sys->pairs14[k];
        h = hash_i32(hash_i32(h, p->i), p->j);
        h = hash_f64(hash_f64(h, p->scee), p->scnb);
    }
    h = hash_i32(h, sys->exclusion_count);
    for (int32_t k = 0; k < sys->exclusion_count; ++k)
        h = hash_i32(hash_i32(h, sys->exclusions[k].i), sys->exclusions[k].j);
    h = hash_i32(h, sys->water_count);
    for (int32_t k = 0; k < sys->water_count; ++k) {
        const vkmd_water *w = &sys->waters[k];
        h = hash_i32(hash_i32(hash_i32(h, w->o), w->h1), w->h2);
    }
    return h;
}

/* ---- writing ----------------------------------------------------------- */

typedef struct wbuf {
    unsigned char *p;
    size_t n, cap;
} wbuf;

static int put(wbuf *b, const void *data, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n)
            cap *= 2;
        unsigned char *q = realloc(b->p, cap);
        if (!q)
            return 0;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
    return 1;
}

static vkmd_result write_all(int fd, const void *data, size_t n, const char *path)
{
    const unsigned char *p = data;
    while (n > 0) {
        const ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return vkmd_fail(VKMD_ERROR_IO, "%s: cannot write the checkpoint: %s", path,
                             strerror(errno));
        }
        p += w;
        n -= (size_t)w;
    }
    return VKMD_OK;
}

static void fsync_dir(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = 0;
    else if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    const int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: some file systems refuse it */
        close(fd);
    }
}

vkmd_result vkmd_checkpoint_write(const char *path, const vkmd_checkpoint *c)
{
    vkmd_result res = VKMD_OK;
    wbuf b = {0};
    const uint32_t settings_len = c->settings ? (uint32_t)strlen(c->settings) : 0;
    const size_t n3 = 3 * (size_t)c->atom_count;
    int ok = put(&b, &c->atom_count, 4) && put(&b, &c->periodic, 4) &&
             put(&b, &c->fingerprint, 8) && put(&b, &c->step, 8) && put(&b, &c->md_step, 8) &&
             put(&b, &c->time_ps, 8) && put(&b, c->box, 24) && put(&b, &c->seed, 8) &&
             put(&b, &settings_len, 4) && put(&b, c->settings ? c->settings : "", settings_len) &&
             put(&b, c->positions, n3 * sizeof(double)) &&
             put(&b, c->velocities, n3 * sizeof(double)) && put(&b, &c->barostat, 4) &&
             put(&b, c->baro_step_a3, 24) && put(&b, c->baro_attempts, 24) &&
             put(&b, c->baro_accepted, 24) && put(&b, c->baro_window_attempts, 12) &&
             put(&b, c->baro_window_accepted, 12);
    /* The cell tail only for a triclinic box: a rectangular box's file stays
     * version 2, byte for byte what vkmd wrote before triclinic boxes. */
    const int tri = c->periodic && c->triclinic;
    if (ok && tri)
        ok = put(&b, &c->triclinic, 4) && put(&b, c->box_angle_deg, 24) && put(&b, c->box_vec, 72);
    if (!ok) {
        free(b.p);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory for the checkpoint", path);
    }
    unsigned char header[VKMD_CHECKPOINT_HEADER_BYTES];
    const uint32_t version = tri ? VKMD_CHECKPOINT_VERSION : 2u, endian = ENDIAN_MARK;
    const uint64_t payload = b.n, sum = vkmd_fnv1a64(VKMD_FNV1A64_INIT, b.p, b.n), zero = 0;
    memcpy(header, magic, 8);
    memcpy(header + 8, &version, 4);
    memcpy(header + 12, &endian, 4);
    memcpy(header + 16, &payload, 8);
    memcpy(header + 24, &sum, 8);
    memcpy(header + 32, &zero, 8);

    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        free(b.p);
        return vkmd_fail(VKMD_ERROR_IO, "%s: path too long", path);
    }
    const int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        res =
            vkmd_fail(VKMD_ERROR_IO, "%s: cannot create the checkpoint: %s", tmp, strerror(errno));
        free(b.p);
        return res;
    }
    res = write_all(fd, header, sizeof header, tmp);
    if (res == VKMD_OK)
        res = write_all(fd, b.p, b.n, tmp);
    if (res == VKMD_OK && fsync(fd) != 0)
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot flush the checkpoint to disk: %s", tmp,
                        strerror(errno));
    if (close(fd) != 0 && res == VKMD_OK)
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot close the checkpoint: %s", tmp, strerror(errno));
    free(b.p);
    if (res == VKMD_OK && rename(tmp, path) != 0)
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot rename %s over it: %s", path, tmp,
                        strerror(errno));
    if (res != VKMD_OK) {
        unlink(tmp); /* the previous checkpoint at `path` is untouched */
        return res;
    }
    fsync_dir(path);
    return VKMD_OK;
}

/* ---- reading ----------------------------------------------------------- */

#define BAROSTAT_BYTES 100 /* the version 2 tail: flag, step sizes, counters */
#define CELL_BYTES     100 /* the version 3 tail: triclinic flag, angles, vectors */

typedef struct rbuf {
    const unsigned char *p;
    size_t n, at;
} rbuf;

static int get(rbuf *b, void *out, size_t n)
{
    if (b->n - b->at < n)
        return 0;
    memcpy(out, b->p + b->at, n);
    b->at += n;
    return 1;
}

vkmd_result vkmd_checkpoint_read(const char *path, vkmd_checkpoint *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    unsigned char *data = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open the checkpoint: %s", path,
                         strerror(errno));
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot read the checkpoint: %s", path,
                         strerror(errno));
    }
    data = malloc(size > 0 ? (size_t)size : 1);
    if (!data) {
        fclose(f);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    if (size > 0 && fread(data, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(data);
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot read the checkpoint", path);
    }
    fclose(f);

    if (size < VKMD_CHECKPOINT_HEADER_BYTES) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: not a vkmd checkpoint or truncated: %ld bytes, shorter than the "
                        "%d-byte header",
                        path, size, VKMD_CHECKPOINT_HEADER_BYTES);
        goto cleanup;
    }
    if (memcmp(data, magic, 8) != 0) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: not a vkmd checkpoint (wrong magic bytes)", path);
        goto cleanup;
    }
    uint32_t version, endian;
    uint64_t payload, sum;
    memcpy(&version, data + 8, 4);
    memcpy(&endian, data + 12, 4);
    memcpy(&payload, data + 16, 8);
    memcpy(&sum, data + 24, 8);
    uint64_t reserved;
    memcpy(&reserved, data + 32, 8);
    if (endian != ENDIAN_MARK) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: checkpoint written on a machine of other byte order (or corrupt "
                        "header)",
                        path);
        goto cleanup;
    }
    if (reserved != 0) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: checkpoint header corrupt (reserved bytes not zero)",
                        path);
        goto cleanup;
    }
    if (version != VKMD_CHECKPOINT_VERSION && version != 1u && version != 2u) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: checkpoint format version %u; this vkmd reads versions 1 to %u", path,
                        version, VKMD_CHECKPOINT_VERSION);
        goto cleanup;
    }
    const uint64_t have = (uint64_t)size - VKMD_CHECKPOINT_HEADER_BYTES;
    if (payload != have) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: checkpoint %s: the header announces %llu payload bytes, the file "
                        "has %llu",
                        path, have < payload ? "truncated" : "has trailing bytes",
                        (unsigned long long)payload, (unsigned long long)have);
        goto cleanup;
    }
    const unsigned char *body = data + VKMD_CHECKPOINT_HEADER_BYTES;
    if (vkmd_fnv1a64(VKMD_FNV1A64_INIT, body, payload) != sum) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: checkpoint corrupt: checksum mismatch (the file was changed or "
                        "damaged after it was written)",
                        path);
        goto cleanup;
    }
    rbuf b = {body, payload, 0};
    uint32_t settings_len = 0;
    int ok = get(&b, &out->atom_count, 4) && get(&b, &out->periodic, 4) &&
             get(&b, &out->fingerprint, 8) && get(&b, &out->step, 8) && get(&b, &out->md_step, 8) &&
             get(&b, &out->time_ps, 8) && get(&b, out->box, 24) && get(&b, &out->seed, 8) &&
             get(&b, &settings_len, 4);
    const size_t n3 = ok && out->atom_count > 0 ? 3 * (size_t)out->atom_count : 0;
    const size_t tail = (version >= 2 ? BAROSTAT_BYTES : 0) + (version >= 3 ? CELL_BYTES : 0);
    if (!ok || out->atom_count <= 0 || out->step < 0 || out->md_step < out->step ||
        b.n - b.at != (size_t)settings_len + 2 * n3 * sizeof(double) + tail) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: checkpoint inconsistent: %d atoms, %u settings bytes do not add "
                        "up to its %llu payload bytes",
                        path, out->atom_count, settings_len, (unsigned long long)payload);
        goto cleanup;
    }
    out->settings = malloc((size_t)settings_len + 1);
    out->positions = malloc(n3 * sizeof(double));
    out->velocities = malloc(n3 * sizeof(double));
    if (!out->settings || !out->positions || !out->velocities) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto cleanup;
    }
    get(&b, out->settings, settings_len);
    out->settings[settings_len] = 0;
    get(&b, out->positions, n3 * sizeof(double));
    get(&b, out->velocities, n3 * sizeof(double));
    if (version >= 2) {
        get(&b, &out->barostat, 4);
        get(&b, out->baro_step_a3, 24);
        get(&b, out->baro_attempts, 24);
        get(&b, out->baro_accepted, 24);
        get(&b, out->baro_window_attempts, 12);
        get(&b, out->baro_window_accepted, 12);
        for (int k = 0; k < 3; ++k)
            if (!(out->baro_step_a3[k] >= 0 && isfinite(out->baro_step_a3[k]))) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s: checkpoint holds a barostat step size %g A^3 (need >= 0)",
                                path, out->baro_step_a3[k]);
                goto cleanup;
            }
    }
    if (version >= 3) {
        get(&b, &out->triclinic, 4);
        get(&b, out->box_angle_deg, 24);
        get(&b, out->box_vec, 72);
        if (out->triclinic != 1 || !out->periodic ||
            !(out->box_vec[0][0] > 0 && out->box_vec[1][1] > 0 && out->box_vec[2][2] > 0)) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s: checkpoint holds an invalid triclinic cell (flag %d, diagonal "
                            "%g %g %g A)",
                            path, out->triclinic, out->box_vec[0][0], out->box_vec[1][1],
                            out->box_vec[2][2]);
            goto cleanup;
        }
    }
    for (size_t k = 0; k < n3; ++k)
        if (!isfinite(out->positions[k]) || !isfinite(out->velocities[k])) {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s: checkpoint holds a non-finite value (atom %zu)",
                            path, k / 3 + 1);
            goto cleanup;
        }
cleanup:
    free(data);
    if (res != VKMD_OK)
        vkmd_checkpoint_free(out);
    return res;
}

vkmd_result vkmd_checkpoint_check_system(const vkmd_checkpoint *c, const vkmd_system *sys,
                                         const char *path)
{
    if (c->atom_count != sys->atom_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: checkpoint of a system with %d atoms; this system has %d", path,
                         c->atom_count, sys->atom_count);
    if (c->fingerprint != vkmd_checkpoint_fingerprint(sys))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: checkpoint of another system (same atom count, but masses, "
                         "charges, types or topology differ; another --hmr?)",
                         path);
    if (c->periodic != sys->box.periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: checkpoint %s periodic; this system is%s", path,
                         c->periodic ? "is" : "is not", sys->box.periodic ? "" : " not");
    return VKMD_OK;
}

void vkmd_checkpoint_set_box(vkmd_checkpoint *c, const vkmd_box *box)
{
    c->periodic = box->periodic;
    c->triclinic = box->periodic && box->triclinic;
    memset(c->box_angle_deg, 0, sizeof c->box_angle_deg);
    memset(c->box_vec, 0, sizeof c->box_vec);
    for (int d = 0; d < 3; ++d)
        c->box[d] = box->periodic ? box->len[d] : 0.0;
    if (c->triclinic) {
        memcpy(c->box_angle_deg, box->angle_deg, sizeof c->box_angle_deg);
        memcpy(c->box_vec, box->vec, sizeof c->box_vec);
    }
}

void vkmd_checkpoint_box(const vkmd_checkpoint *c, vkmd_box *out_box)
{
    memset(out_box, 0, sizeof *out_box);
    if (!c->periodic)
        return;
    if (!c->triclinic) {
        vkmd_box_set_rect(out_box, c->box);
        return;
    }
    out_box->periodic = 1;
    out_box->triclinic = 1;
    memcpy(out_box->len, c->box, sizeof out_box->len);
    memcpy(out_box->angle_deg, c->box_angle_deg, sizeof out_box->angle_deg);
    memcpy(out_box->vec, c->box_vec, sizeof out_box->vec);
}

int vkmd_checkpoint_setting(const vkmd_checkpoint *c, const char *key, char *out, size_t size)
{
    const size_t kl = strlen(key);
    for (const char *line = c->settings; line && *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > kl && !strncmp(line, key, kl) && line[kl] == ' ') {
            const size_t vl = len - kl - 1;
            if (size > 0) {
                const size_t cp = vl < size - 1 ? vl : size - 1;
                memcpy(out, line + kl + 1, cp);
                out[cp] = 0;
            }
            return 1;
        }
        line = end ? end + 1 : line + len;
    }
    return 0;
}

void vkmd_checkpoint_free(vkmd_checkpoint *c)
{
    free(c->settings);
    free(c->positions);
    free(c->velocities);
    memset(c, 0, sizeof *c);
}
