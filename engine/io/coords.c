/* AMBER inpcrd/rst7 reader and rst7 writer (see coords.h); a NetCDF
 * restart given where coordinates are expected goes to io/netcdf.c.
 *
 * Sections are found by line count, as AMBER does: the coordinates take
 * ceil(N/2) lines, velocities (if present) as many again, and the box one
 * line. With N <= 2 one extra line is ambiguous; it is the box if it has 3
 * values or its last three read as 90-degree angles. */
#include "io/coords.h"

#include "io/netcdf.h"
#include "io/text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD 12

static int line_is_blank(const vkmd_text *t, int32_t l)
{
    return t->lens[l] == 0;
}

/* Parses `want` values of width FIELD from lines[first...] into out, 6 per line. */
static vkmd_result read_block(const char *path, const vkmd_text *t, int32_t first, int64_t want,
                              const char *what, int32_t natom, double *out)
{
    int64_t got = 0;
    int32_t l = first;
    while (got < want) {
        if (l >= t->line_count)
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s:%d: expected %d atoms of %s (the count on line 2), file ends "
                             "after %lld atoms",
                             path, t->line_count, natom, what, (long long)(got / 3));
        const char *line = t->lines[l];
        int len = t->lens[l];
        int64_t n_here = want - got < 6 ? want - got : 6;
        int nfields = (len + FIELD - 1) / FIELD;
        if (nfields != n_here)
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s:%d: expected %lld %s values in 12-character fields, found %d "
                             "(atom %lld)",
                             path, l + 1, (long long)n_here, what, nfields,
                             (long long)(got / 3 + 1));
        for (int k = 0; k < nfields; ++k) {
            int a = k * FIELD;
            int n = len - a < FIELD ? len - a : FIELD;
            if (!vkmd_text_parse_real(line + a, n, &out[got]))
                return vkmd_fail(VKMD_ERROR_PARSE,
                                 "%s:%d: expected a number in columns %d-%d (%s of atom %lld), "
                                 "found '%.*s'",
                                 path, l + 1, a + 1, a + n, what, (long long)(got / 3 + 1), n,
                                 line + a);
            ++got;
        }
        ++l;
    }
    return VKMD_OK;
}

/* Reads the box line; 3 or 6 values. */
static vkmd_result read_box(const char *path, const vkmd_text *t, int32_t l, vkmd_box *box)
{
    double v[6] = {0, 0, 0, 90, 90, 90};
    const char *line = t->lines[l];
    int len = t->lens[l];
    int nfields = (len + FIELD - 1) / FIELD;
    if (nfields != 3 && nfields != 6)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:%d: expected the box line (a b c alpha beta gamma, 12-character "
                         "fields), found %d fields",
                         path, l + 1, nfields);
    for (int k = 0; k < nfields; ++k) {
        int a = k * FIELD;
        int n = len - a < FIELD ? len - a : FIELD;
        if (!vkmd_text_parse_real(line + a, n, &v[k]))
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s:%d: expected a box value in columns %d-%d, found '%.*s'", path,
                             l + 1, a + 1, a + n, n, line + a);
    }
    char where[600];
    snprintf(where, sizeof where, "%s:%d", path, l + 1);
    return vkmd_box_set(box, v, &v[3], where);
}

static int looks_like_box(const vkmd_text *t, int32_t l)
{
    int nfields = (t->lens[l] + FIELD - 1) / FIELD;
    if (nfields == 3)
        return 1;
    if (nfields != 6)
        return 0;
    for (int k = 3; k < 6; ++k) {
        double v;
        if (!vkmd_text_parse_real(t->lines[l] + k * FIELD, FIELD, &v) || v < 30 || v > 150)
            return 0;
    }
    return 1;
}

vkmd_result vkmd_coords_read_amber(const char *path, vkmd_system *sys)
{
    vkmd_text t;
    double *pos = NULL, *vel = NULL;
    vkmd_result res = vkmd_text_read(path, &t);
    if (res != VKMD_OK)
        return res;
    if (vkmd_text_is_netcdf(&t)) {
        /* Binary: an AMBER NetCDF restart (io/netcdf.h), whatever its name. */
        vkmd_text_free(&t);
        return vkmd_netcdf_read_restart(path, sys, NULL);
    }
    if (t.size == 0) {
        res =
            vkmd_fail(VKMD_ERROR_PARSE, "%s:1: the file is empty (expected an AMBER inpcrd)", path);
        goto cleanup;
    }
    if (t.line_count < 2) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s:2: expected the atom count line after the title, file ends", path);
        goto cleanup;
    }
    /* Line 2: atom count, optional time (free format; I5/I6 in practice). */
    int64_t natom = 0;
    {
        const char *line = t.lines[1];
        char *end = NULL;
        long long v = strtoll(line, &end, 10);
        double time_ps = 0;
        int ok = end != line && v > 0 && v <= INT32_MAX;
        if (ok) {
            const char *rest = end;
            while (*rest == ' ' || *rest == '\t')
                ++rest;
            if (*rest) {
                char *e2 = NULL;
                time_ps = strtod(rest, &e2);
                while (e2 && (*e2 == ' ' || *e2 == '\t'))
                    ++e2;
                ok = e2 != rest && *e2 == '\0';
            }
        }
        if (!ok) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:2: expected the atom count (and optional time), found '%.40s'",
                            path, line);
            goto cleanup;
        }
        natom = v;
        (void)time_ps;
    }
    if (natom != sys->atom_count) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s:2: the file has %lld atoms, the topology has %d; expected the same "
                        "system",
                        path, (long long)natom, sys->atom_count);
        goto cleanup;
    }
    const int32_t block_lines = (int32_t)((natom + 1) / 2);
    pos = malloc((size_t)natom * 3 * sizeof *pos);
    if (!pos) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto cleanup;
    }
    VKMD_TRY(read_block(path, &t, 2, 3 * natom, "coordinates", (int32_t)natom, pos));

    /* What follows: nothing, box, velocities, or velocities and box. */
    int32_t l = 2 + block_lines;
    int32_t rest = t.line_count - l;
    while (rest > 0 && line_is_blank(&t, l + rest - 1))
        --rest;
    int has_vel = 0, has_box = 0;
    if (rest == 0) {
    } else if (rest == 1 && !(block_lines == 1 && !looks_like_box(&t, l))) {
        has_box = 1;
    } else if (rest == block_lines) {
        has_vel = 1;
    } else if (rest == block_lines + 1) {
        has_vel = has_box = 1;
    } else {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s:%d: expected nothing, a box line, %d velocity lines or both after "
                        "the coordinates of %lld atoms, found %d lines",
                        path, l + 1, block_lines, (long long)natom, rest);
        goto cleanup;
    }
    vkmd_box box = sys->box;
    if (has_vel) {
        vel = malloc((size_t)natom * 3 * sizeof *vel);
        if (!vel) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
            goto cleanup;
        }
        VKMD_TRY(read_block(path, &t, l, 3 * natom, "velocities", (int32_t)natom, vel));
        for (int64_t k = 0; k < 3 * natom; ++k)
            vel[k] *= VKMD_AMBER_VELOCITY_TO_A_PER_FS;
        l += block_lines;
    }
    if (has_box)
        VKMD_TRY(read_box(path, &t, l, &box));

    free(sys->positions);
    sys->positions = pos;
    pos = NULL;
    if (vel) {
        free(sys->velocities);
        sys->velocities = vel;
        vel = NULL;
    }
    sys->box = box;

cleanup:
    free(pos);
    free(vel);
    vkmd_text_free(&t);
    return res;
}

static int write_values(FILE *f, const double *v, int64_t n, double scale)
{
    char field[FIELD + 1];
    for (int64_t k = 0; k < n; ++k) {
        if (!vkmd_text_format_fixed(field, FIELD, 7, v[k] * scale))
            return 0;
        fputs(field, f);
        if (k % 6 == 5 || k == n - 1)
            fputc('\n', f);
    }
    return 1;
}

vkmd_result vkmd_coords_write_rst7(const char *path, const vkmd_system *sys, double time_ps)
{
    if (!sys->positions || sys->atom_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: the system has no coordinates to write",
                         path);
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", path, strerror(errno));
    fprintf(f, "%.80s\n", sys->title[0] ? sys->title : "vkmd");
    fprintf(f, sys->atom_count < 100000 ? "%5d%15.7e\n" : "%6d%15.7e\n", sys->atom_count, time_ps);
    const int64_t n = 3 * (int64_t)sys->atom_count;
    int ok = write_values(f, sys->positions, n, 1.0);
    if (ok && sys->velocities)
        ok = write_values(f, sys->velocities, n, 1.0 / VKMD_AMBER_VELOCITY_TO_A_PER_FS);
    if (ok && sys->box.periodic) {
        const vkmd_box *x = &sys->box;
        double b[6] = {x->len[0], x->len[1], x->len[2], 90, 90, 90};
        if (x->triclinic)
            memcpy(&b[3], x->angle_deg, sizeof x->angle_deg);
        ok = write_values(f, b, 6, 1.0);
    }
    return vkmd_text_close_written(f, path, ok,
                                   "a coordinate, velocity or box value does not fit a "
                                   "12-character rst7 field (|x| >= 1e11 or not finite)");
}
