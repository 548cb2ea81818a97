/* AMBER NetCDF trajectories and restarts (see netcdf.h).
 *
 * A file's header is checked by io/netcdf_header.c before libnetcdf sees
 * it. Every libnetcdf call goes through NC(): its status becomes a vkmd error
 * naming the file and nc_strerror's reason. Variable ids of the optional
 * variables are -1 when absent. */
#include "io/netcdf.h"
#include "io/netcdf_header.h"

#include <netcdf.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TITLE_MAX 80

/* Evaluates a libnetcdf call once; on failure sets res and jumps to cleanup. */
#define NC(call, code, what)                                                                       \
    do {                                                                                           \
        const int nc_status_ = (call);                                                             \
        if (nc_status_ != NC_NOERR) {                                                              \
            res = vkmd_fail((code), "%s: %s: %s", path, (what), nc_strerror(nc_status_));          \
            goto cleanup;                                                                          \
        }                                                                                          \
    } while (0)

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot : "";
}

int vkmd_netcdf_is_traj_path(const char *path)
{
    const char *e = extension(path);
    return !strcasecmp(e, ".nc") || !strcasecmp(e, ".ncdf") || !strcasecmp(e, ".netcdf");
}

int vkmd_netcdf_is_restart_path(const char *path)
{
    const char *e = extension(path);
    return !strcasecmp(e, ".ncrst") || !strcasecmp(e, ".nc") || !strcasecmp(e, ".ncdf");
}

/* ---- variable ids of one file ------------------------------------------- */

typedef struct nc_ids {
    int ncid;
    int dim_frame, dim_atom;
    int var_time, var_coords, var_vel, var_cell_len, var_cell_ang;
} nc_ids;

static int text_attr(int ncid, const char *name, const char *text)
{
    return nc_put_att_text(ncid, NC_GLOBAL, name, strlen(text), text);
}

/* Defines the file's dimensions, variables and attributes (define mode) and
 * writes the label variables. `restart` picks the AMBERRESTART layout. */
static vkmd_result define_file(const char *path, int restart, const vkmd_netcdf_desc *d,
                               nc_ids *ids)
{
    vkmd_result res = VKMD_OK;
    const int ncid = ids->ncid;
    char title[TITLE_MAX + 1];
    snprintf(title, sizeof title, "%s", d->title && d->title[0] ? d->title : "vkmd");
    int dim_spatial, dim_cs, dim_ca, dim_label;
    ids->dim_frame = -1;
    ids->var_vel = ids->var_cell_len = ids->var_cell_ang = -1;
    NC(nc_set_fill(ncid, NC_NOFILL, NULL), VKMD_ERROR_IO, "cannot define");
    NC(text_attr(ncid, "Conventions", restart ? "AMBERRESTART" : "AMBER"), VKMD_ERROR_IO,
       "cannot define");
    NC(text_attr(ncid, "ConventionVersion", "1.0"), VKMD_ERROR_IO, "cannot define");
    NC(text_attr(ncid, "program", "vkmd"), VKMD_ERROR_IO, "cannot define");
    NC(text_attr(ncid, "programVersion", VKMD_VERSION), VKMD_ERROR_IO, "cannot define");
    NC(text_attr(ncid, "title", title), VKMD_ERROR_IO, "cannot define");
    if (!restart)
        NC(nc_def_dim(ncid, "frame", NC_UNLIMITED, &ids->dim_frame), VKMD_ERROR_IO,
           "cannot define");
    NC(nc_def_dim(ncid, "spatial", 3, &dim_spatial), VKMD_ERROR_IO, "cannot define");
    NC(nc_def_dim(ncid, "atom", (size_t)d->atom_count, &ids->dim_atom), VKMD_ERROR_IO,
       "cannot define");
    NC(nc_def_dim(ncid, "cell_spatial", 3, &dim_cs), VKMD_ERROR_IO, "cannot define");
    NC(nc_def_dim(ncid, "cell_angular", 3, &dim_ca), VKMD_ERROR_IO, "cannot define");
    NC(nc_def_dim(ncid, "label", 5, &dim_label), VKMD_ERROR_IO, "cannot define");

    int var_spatial, var_cs, var_ca;
    NC(nc_def_var(ncid, "spatial", NC_CHAR, 1, &dim_spatial, &var_spatial), VKMD_ERROR_IO,
       "cannot define");
    const nc_type real = restart ? NC_DOUBLE : NC_FLOAT;
    NC(nc_def_var(ncid, "time", real, restart ? 0 : 1, &ids->dim_frame, &ids->var_time),
       VKMD_ERROR_IO, "cannot define");
    NC(nc_put_att_text(ncid, ids->var_time, "units", 10, "picosecond"), VKMD_ERROR_IO,
       "cannot define");
    const int xyz_dims[3] = {ids->dim_frame, ids->dim_atom, dim_spatial};
    const int *xd = restart ? xyz_dims + 1 : xyz_dims;
    const int xn = restart ? 2 : 3;
    NC(nc_def_var(ncid, "coordinates", real, xn, xd, &ids->var_coords), VKMD_ERROR_IO,
       "cannot define");
    NC(nc_put_att_text(ncid, ids->var_coords, "units", 8, "angstrom"), VKMD_ERROR_IO,
       "cannot define");
    if (d->velocities) {
        const double scale = VKMD_NETCDF_VELOCITY_SCALE;
        NC(nc_def_var(ncid, "velocities", real, xn, xd, &ids->var_vel), VKMD_ERROR_IO,
           "cannot define");
        NC(nc_put_att_text(ncid, ids->var_vel, "units", 19, "angstrom/picosecond"), VKMD_ERROR_IO,
           "cannot define");
        NC(nc_put_att_double(ncid, ids->var_vel, "scale_factor", NC_DOUBLE, 1, &scale),
           VKMD_ERROR_IO, "cannot define");
    }
    NC(nc_def_var(ncid, "cell_spatial", NC_CHAR, 1, &dim_cs, &var_cs), VKMD_ERROR_IO,
       "cannot define");
    const int ca_dims[2] = {dim_ca, dim_label};
    NC(nc_def_var(ncid, "cell_angular", NC_CHAR, 2, ca_dims, &var_ca), VKMD_ERROR_IO,
       "cannot define");
    if (d->periodic) {
        const int cl_dims[2] = {ids->dim_frame, dim_cs}, ca2[2] = {ids->dim_frame, dim_ca};
        NC(nc_def_var(ncid, "cell_lengths", NC_DOUBLE, restart ? 1 : 2,
                      restart ? cl_dims + 1 : cl_dims, &ids->var_cell_len),
           VKMD_ERROR_IO, "cannot define");
        NC(nc_put_att_text(ncid, ids->var_cell_len, "units", 8, "angstrom"), VKMD_ERROR_IO,
           "cannot define");
        NC(nc_def_var(ncid, "cell_angles", NC_DOUBLE, restart ? 1 : 2, restart ? ca2 + 1 : ca2,
                      &ids->var_cell_ang),
           VKMD_ERROR_IO, "cannot define");
        NC(nc_put_att_text(ncid, ids->var_cell_ang, "units", 6, "degree"), VKMD_ERROR_IO,
           "cannot define");
    }
    NC(nc_enddef(ncid), VKMD_ERROR_IO, "cannot define");
    NC(nc_put_var_text(ncid, var_spatial, "xyz"), VKMD_ERROR_IO, "cannot write");
    NC(nc_put_var_text(ncid, var_cs, "abc"), VKMD_ERROR_IO, "cannot write");
    NC(nc_put_var_text(ncid, var_ca, "alphabeta gamma"), VKMD_ERROR_IO, "cannot write");
cleanup:
    return res;
}

/* The box as the cell variables carry it: lengths and angles (90 for a
 * rectangular box, whose angle_deg older code leaves unset). */
static void box_cell(const vkmd_box *box, double len[3], double ang[3])
{
    for (int k = 0; k < 3; ++k) {
        len[k] = box->len[k];
        ang[k] = box->triclinic ? box->angle_deg[k] : 90.0;
    }
}

static vkmd_result check_box(const char *path, const vkmd_box *box)
{
    if (!box || !box->periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: the file carries a cell: expected a periodic box", path);
    for (int k = 0; k < 3; ++k)
        if (!(box->len[k] > 0) || !isfinite(box->len[k]))
            return vkmd_fail(VKMD_ERROR_NUMERIC, "%s: box edge %c = %g, expected finite > 0", path,
                             "abc"[k], box -> len[k]);
    return VKMD_OK;
}

/* ---- trajectory writer -------------------------------------------------- */

struct vkmd_netcdf_writer {
    char *path;
    nc_ids ids;
    vkmd_netcdf_desc desc;
    int32_t frames;
    float *buf;  /* [3 * atom_count] coordinates of the frame being written */
    float *vbuf; /* [3 * atom_count] its velocities */
};

static vkmd_result writer_alloc(const char *path, const vkmd_netcdf_desc *d,
                                vkmd_netcdf_writer **out_w)
{
    *out_w = NULL;
    if (!d || d->atom_count <= 0 || d->atom_count > INT32_MAX / 3)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: atom count %d, expected 1..%d", path,
                         d ? d->atom_count : 0, INT32_MAX / 3);
    vkmd_netcdf_writer *w = calloc(1, sizeof *w);
    const size_t n = strlen(path) + 1;
    const size_t n3 = 3 * (size_t)d->atom_count;
    if (!w || !(w->path = malloc(n)) || !(w->buf = malloc(sizeof *w->buf * n3)) ||
        !(w->vbuf = malloc(sizeof *w->vbuf * n3))) {
        if (w) {
            free(w->path);
            free(w->buf);
        }
        free(w);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    memcpy(w->path, path, n);
    w->desc = *d;
    w->desc.title = NULL;
    w->ids.ncid = -1;
    *out_w = w;
    return VKMD_OK;
}

vkmd_result vkmd_netcdf_writer_create(const char *path, const vkmd_netcdf_desc *desc,
                                      vkmd_netcdf_writer **out_w)
{
    vkmd_netcdf_writer *w = NULL;
    VKMD_TRY_RETURN(writer_alloc(path, desc, &w));
    vkmd_result res = VKMD_OK;
    NC(nc_create(path, NC_CLOBBER | NC_64BIT_OFFSET, &w->ids.ncid), VKMD_ERROR_IO, "cannot create");
    VKMD_TRY(define_file(path, 0, desc, &w->ids));
    NC(nc_sync(w->ids.ncid), VKMD_ERROR_IO, "cannot write");
    *out_w = w;
    return VKMD_OK;
cleanup:
    (void)vkmd_netcdf_writer_close(w);
    return res;
}

/* Converts v * factor to floats in out; a value that is not finite or
 * beyond float range is VKMD_ERROR_NUMERIC naming the atom. */
static vkmd_result to_floats(const vkmd_netcdf_writer *w, const double *v, double factor,
                             const char *what, float *out)
{
    const int64_t n3 = 3 * (int64_t)w->desc.atom_count;
    for (int64_t k = 0; k < n3; ++k) {
        const double x = v[k] * factor;
        if (!isfinite(x) || fabs(x) > 3.4e38)
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "%s: %s of atom %lld is %g: not a finite float; frame not written",
                             w->path, what, (long long)(k / 3 + 1), v[k]);
        out[k] = (float)x;
    }
    return VKMD_OK;
}

vkmd_result vkmd_netcdf_writer_append(vkmd_netcdf_writer *w, double time_ps, const double *xyz,
                                      const double *vel, const vkmd_box *box)
{
    const char *path = w->path;
    vkmd_result res = VKMD_OK;
    const size_t n = (size_t)w->desc.atom_count;
    if (w->desc.velocities && !vel)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: the file carries velocities: none given",
                         path);
    if (w->desc.periodic)
        VKMD_TRY_RETURN(check_box(path, box));
    if (!isfinite(time_ps))
        return vkmd_fail(VKMD_ERROR_NUMERIC, "%s: time %g ps is not finite", path, time_ps);
    /* Every value is checked before anything of the frame is written. */
    if (w->desc.velocities)
        VKMD_TRY_RETURN(
            to_floats(w, vel, 1.0 / (VKMD_NETCDF_VELOCITY_SCALE / 1000.0), "velocity", w->vbuf));
    VKMD_TRY_RETURN(to_floats(w, xyz, 1.0, "coordinate", w->buf));
    const size_t f = (size_t)w->frames;
    const size_t start[3] = {f, 0, 0}, count[3] = {1, n, 3};
    const nc_ids *ids = &w->ids;
    NC(nc_put_vara_float(ids->ncid, ids->var_coords, start, count, w->buf), VKMD_ERROR_IO,
       "cannot write a frame");
    if (w->desc.velocities)
        NC(nc_put_vara_float(ids->ncid, ids->var_vel, start, count, w->vbuf), VKMD_ERROR_IO,
           "cannot write a frame");
    if (w->desc.periodic) {
        double len[3], ang[3];
        box_cell(box, len, ang);
        const size_t cc[2] = {1, 3};
        NC(nc_put_vara_double(ids->ncid, ids->var_cell_len, start, cc, len), VKMD_ERROR_IO,
           "cannot write a frame");
        NC(nc_put_vara_double(ids->ncid, ids->var_cell_ang, start, cc, ang), VKMD_ERROR_IO,
           "cannot write a frame");
    }
    const float t = (float)time_ps;
    NC(nc_put_var1_float(ids->ncid, ids->var_time, start, &t), VKMD_ERROR_IO,
       "cannot write a frame");
    NC(nc_sync(ids->ncid), VKMD_ERROR_IO, "cannot write a frame");
    ++w->frames;
cleanup:
    return res;
}

int32_t vkmd_netcdf_writer_frame_count(const vkmd_netcdf_writer *w)
{
    return w->frames;
}

vkmd_result vkmd_netcdf_writer_close(vkmd_netcdf_writer *w)
{
    if (!w)
        return VKMD_OK;
    vkmd_result res = VKMD_OK;
    const char *path = w->path;
    if (w->ids.ncid >= 0)
        NC(nc_close(w->ids.ncid), VKMD_ERROR_IO, "cannot close");
cleanup:
    free(w->path);
    free(w->buf);
    free(w->vbuf);
    free(w);
    return res;
}

/* ---- reader ------------------------------------------------------------- */

struct vkmd_netcdf_reader {
    char *path;
    nc_ids ids;
    vkmd_netcdf_info info;
    double vel_scale; /* stored * vel_scale = A/fs */
};

static void global_text(int ncid, const char *name, char *out, size_t out_size)
{
    size_t len = 0;
    out[0] = 0;
    nc_type type;
    if (nc_inq_att(ncid, NC_GLOBAL, name, &type, &len) != NC_NOERR || type != NC_CHAR)
        return;
    char *buf = malloc(len + 1);
    if (!buf)
        return;
    if (nc_get_att_text(ncid, NC_GLOBAL, name, buf) == NC_NOERR) {
        buf[len] = 0;
        while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == 0))
            buf[--len] = 0;
        snprintf(out, out_size, "%s", buf);
    }
    free(buf);
}

static int dim_of(int ncid, const char *name, size_t *out_len)
{
    int id;
    if (nc_inq_dimid(ncid, name, &id) != NC_NOERR)
        return -1;
    if (nc_inq_dimlen(ncid, id, out_len) != NC_NOERR)
        return -1;
    return id;
}

/* Checks variable `name` (if present) has the dims `want` (ids) and a
 * numeric type; *out_id -1 when absent. */
static vkmd_result find_var(const char *path, int ncid, const char *name, int required, int ndims,
                            const int *want, const char *shape, int *out_id)
{
    *out_id = -1;
    int id;
    if (nc_inq_varid(ncid, name, &id) != NC_NOERR) {
        if (required)
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: no variable '%s' (expected %s%s)", path, name,
                             name, shape);
        return VKMD_OK;
    }
    nc_type type;
    int nd = 0, dims[NC_MAX_VAR_DIMS];
    if (nc_inq_var(ncid, id, NULL, &type, &nd, dims, NULL) != NC_NOERR)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: cannot inquire variable '%s'", path, name);
    int ok = nd == ndims;
    for (int k = 0; ok && k < nd; ++k)
        ok = dims[k] == want[k];
    if (!ok)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: variable '%s' has %d dimensions, expected %s%s",
                         path, name, nd, name, shape);
    if (type != NC_FLOAT && type != NC_DOUBLE)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: variable '%s' is not float or double", path, name);
    *out_id = id;
    return VKMD_OK;
}

vkmd_result vkmd_netcdf_reader_open(const char *path, vkmd_netcdf_reader **out_r)
{
    *out_r = NULL;
    vkmd_result res = VKMD_OK;
    vkmd_netcdf_reader *r = calloc(1, sizeof *r);
    const size_t plen = strlen(path) + 1;
    if (!r || !(r->path = malloc(plen))) {
        free(r);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    memcpy(r->path, path, plen);
    r->ids.ncid = -1;
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
        goto cleanup;
    }
    fclose(probe);
    int64_t at = 0, size = 0;
    switch (vkmd_netcdf_header_check(path, &at, &size)) {
    case VKMD_NETCDF_HEADER_OK:
        break;
    case VKMD_NETCDF_HEADER_HDF5:
        res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                        "%s: a NetCDF-4 (HDF5) file; vkmd reads the NetCDF-3 files AMBER writes: "
                        "convert with nccopy -k 64-bit-offset",
                        path);
        goto cleanup;
    case VKMD_NETCDF_HEADER_CUT:
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: the file is cut off: its header describes data up to byte %lld, the "
                        "file has %lld bytes",
                        path, (long long)at, (long long)size);
        goto cleanup;
    case VKMD_NETCDF_HEADER_CORRUPT:
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: byte %lld: the NetCDF header is cut off or corrupt (a count "
                        "beyond the file's size, a bad type or dimension)",
                        path, (long long)at);
        goto cleanup;
    default:
        res =
            vkmd_fail(VKMD_ERROR_PARSE,
                      "%s: not a readable NetCDF file (no NetCDF-3 signature CDF at byte 0)", path);
        goto cleanup;
    }
    {
        const int st = nc_open(path, NC_NOWRITE, &r->ids.ncid);
        if (st != NC_NOERR) {
            r->ids.ncid = -1;
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s: not a readable NetCDF file: %s", path,
                            nc_strerror(st));
            goto cleanup;
        }
    }
    const int ncid = r->ids.ncid;
    vkmd_netcdf_info *in = &r->info;
    char conv[81], version[81];
    global_text(ncid, "Conventions", conv, sizeof conv);
    global_text(ncid, "ConventionVersion", version, sizeof version);
    /* Conventions may list several, comma or space separated; AMBER's must be one.
     * (No strtok: a caller may be in the middle of its own.) */
    int amber = 0, restart = 0;
    for (const char *c = conv; *c;) {
        size_t len = strcspn(c, ", ");
        amber |= len == 5 && !strncmp(c, "AMBER", 5);
        restart |= len == 12 && !strncmp(c, "AMBERRESTART", 12);
        c += len;
        c += strspn(c, ", ");
    }
    if (!amber && !restart) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: NetCDF without Conventions AMBER or AMBERRESTART: not an AMBER "
                        "trajectory or restart",
                        path);
        goto cleanup;
    }
    if (strcmp(version, "1.0") != 0) {
        res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                        "%s: AMBER NetCDF ConventionVersion '%s', expected 1.0", path, version);
        goto cleanup;
    }
    in->restart = restart && !amber;
    global_text(ncid, "title", in->title, sizeof in->title);
    global_text(ncid, "program", in->program, sizeof in->program);
    size_t n_atom = 0, n_spatial = 0, n_frame = 1, n_cs = 0, n_ca = 0;
    int dim_spatial = dim_of(ncid, "spatial", &n_spatial);
    r->ids.dim_atom = dim_of(ncid, "atom", &n_atom);
    if (r->ids.dim_atom < 0 || n_atom == 0 || n_atom > INT32_MAX / 3) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: dimension 'atom' is missing or %zu, expected 1..%d",
                        path, n_atom, INT32_MAX / 3);
        goto cleanup;
    }
    if (dim_spatial < 0 || n_spatial != 3) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: dimension 'spatial' is missing or %zu, expected 3",
                        path, n_spatial);
        goto cleanup;
    }
    r->ids.dim_frame = -1;
    if (!in->restart) {
        r->ids.dim_frame = dim_of(ncid, "frame", &n_frame);
        if (r->ids.dim_frame < 0 || n_frame > INT32_MAX) {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s: a trajectory without a 'frame' dimension", path);
            goto cleanup;
        }
    }
    in->atom_count = (int32_t)n_atom;
    in->frame_count = (int32_t)n_frame;
    const int fd = r->ids.dim_frame, ad = r->ids.dim_atom;
    const int xyz_dims[3] = {fd, ad, dim_spatial};
    const int *xd = in->restart ? xyz_dims + 1 : xyz_dims;
    const int xn = in->restart ? 2 : 3;
    const char *xshape = in->restart ? "(atom, spatial)" : "(frame, atom, spatial)";
    VKMD_TRY(find_var(path, ncid, "coordinates", 1, xn, xd, xshape, &r->ids.var_coords));
    VKMD_TRY(find_var(path, ncid, "velocities", 0, xn, xd, xshape, &r->ids.var_vel));
    VKMD_TRY(find_var(path, ncid, "time", 0, in->restart ? 0 : 1, &fd,
                      in->restart ? " (a scalar)" : "(frame)", &r->ids.var_time));
    in->velocities = r->ids.var_vel >= 0;
    in->has_time = r->ids.var_time >= 0;
    r->vel_scale = 1e-3; /* A/ps without a scale_factor */
    if (in->velocities) {
        double sf = 1;
        nc_type type;
        size_t len = 0;
        if (nc_inq_att(ncid, r->ids.var_vel, "scale_factor", &type, &len) == NC_NOERR) {
            if (len != 1 ||
                nc_get_att_double(ncid, r->ids.var_vel, "scale_factor", &sf) != NC_NOERR ||
                !isfinite(sf) || sf == 0) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s: velocities' scale_factor is not one finite non-zero number",
                                path);
                goto cleanup;
            }
            /* AMBER's own factor: the same constant as rst7 velocities, bit for bit. */
            r->vel_scale =
                sf == VKMD_NETCDF_VELOCITY_SCALE ? VKMD_NETCDF_VELOCITY_SCALE / 1000.0 : sf * 1e-3;
        }
    }
    int dim_cs = dim_of(ncid, "cell_spatial", &n_cs), dim_ca = dim_of(ncid, "cell_angular", &n_ca);
    int has_len = 0, has_ang = 0, id;
    has_len = nc_inq_varid(ncid, "cell_lengths", &id) == NC_NOERR;
    has_ang = nc_inq_varid(ncid, "cell_angles", &id) == NC_NOERR;
    if (has_len != has_ang) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: cell_lengths without cell_angles or the reverse",
                        path);
        goto cleanup;
    }
    r->ids.var_cell_len = r->ids.var_cell_ang = -1;
    if (has_len) {
        if (dim_cs < 0 || n_cs != 3 || dim_ca < 0 || n_ca != 3) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s: dimensions 'cell_spatial' and 'cell_angular' must be 3", path);
            goto cleanup;
        }
        const int cl[2] = {fd, dim_cs}, ca[2] = {fd, dim_ca};
        const int cn = in->restart ? 1 : 2;
        VKMD_TRY(find_var(path, ncid, "cell_lengths", 1, cn, in->restart ? cl + 1 : cl,
                          in->restart ? "(cell_spatial)" : "(frame, cell_spatial)",
                          &r->ids.var_cell_len));
        VKMD_TRY(find_var(path, ncid, "cell_angles", 1, cn, in->restart ? ca + 1 : ca,
                          in->restart ? "(cell_angular)" : "(frame, cell_angular)",
                          &r->ids.var_cell_ang));
        in->periodic = 1;
    }
    *out_r = r;
    return VKMD_OK;
cleanup:
    vkmd_netcdf_reader_close(r);
    return res;
}

const vkmd_netcdf_info *vkmd_netcdf_reader_info(const vkmd_netcdf_reader *r)
{
    return &r->info;
}

static vkmd_result check_finite(const char *path, int32_t frame, const double *v, int64_t n,
                                const char *what)
{
    for (int64_t k = 0; k < n; ++k)
        if (!isfinite(v[k]))
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: frame %d: %s of atom %lld is %g", path,
                             frame + 1, what, (long long)(k / 3 + 1), v[k]);
    return VKMD_OK;
}

vkmd_result vkmd_netcdf_reader_frame(vkmd_netcdf_reader *r, int32_t index, double *out_xyz,
                                     double *out_vel, vkmd_box *out_box, double *out_time_ps)
{
    const char *path = r->path;
    const vkmd_netcdf_info *in = &r->info;
    vkmd_result res = VKMD_OK;
    if (index < 0 || index >= in->frame_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: frame %d of %d", path, index + 1,
                         in->frame_count);
    const int ncid = r->ids.ncid;
    const size_t n = (size_t)in->atom_count;
    const size_t f = (size_t)index;
    const size_t start3[3] = {f, 0, 0}, count3[3] = {1, n, 3};
    const size_t *st = in->restart ? start3 + 1 : start3, *ct = in->restart ? count3 + 1 : count3;
    NC(nc_get_vara_double(ncid, r->ids.var_coords, st, ct, out_xyz), VKMD_ERROR_PARSE,
       "cannot read the coordinates");
    VKMD_TRY(check_finite(path, index, out_xyz, 3 * (int64_t)n, "a coordinate"));
    if (out_vel) {
        if (r->ids.var_vel >= 0) {
            NC(nc_get_vara_double(ncid, r->ids.var_vel, st, ct, out_vel), VKMD_ERROR_PARSE,
               "cannot read the velocities");
            for (size_t k = 0; k < 3 * n; ++k)
                out_vel[k] *= r->vel_scale;
            VKMD_TRY(check_finite(path, index, out_vel, 3 * (int64_t)n, "a velocity"));
        } else {
            memset(out_vel, 0, sizeof *out_vel * 3 * n);
        }
    }
    if (out_time_ps)
        VKMD_TRY(vkmd_netcdf_reader_time(r, index, out_time_ps));
    if (out_box) {
        memset(out_box, 0, sizeof *out_box);
        if (in->periodic) {
            double len[3], ang[3];
            const size_t cs[2] = {f, 0}, cc[2] = {1, 3};
            NC(nc_get_vara_double(ncid, r->ids.var_cell_len, in->restart ? cs + 1 : cs,
                                  in->restart ? cc + 1 : cc, len),
               VKMD_ERROR_PARSE, "cannot read cell_lengths");
            NC(nc_get_vara_double(ncid, r->ids.var_cell_ang, in->restart ? cs + 1 : cs,
                                  in->restart ? cc + 1 : cc, ang),
               VKMD_ERROR_PARSE, "cannot read cell_angles");
            char source[600];
            snprintf(source, sizeof source, "%s: frame %d: cell", path, index + 1);
            for (int k = 0; k < 3; ++k)
                if (!(len[k] > 0) || !isfinite(len[k]) || !isfinite(ang[k]))
                    return vkmd_fail(VKMD_ERROR_PARSE,
                                     "%s: cell length %c = %g (angle %g), expected finite > 0",
                                     source, "abc"[k], len[k], ang[k]);
            VKMD_TRY_RETURN(vkmd_box_set(out_box, len, ang, source));
        }
    }
cleanup:
    return res;
}

vkmd_result vkmd_netcdf_reader_time(vkmd_netcdf_reader *r, int32_t index, double *out_time_ps)
{
    const char *path = r->path;
    vkmd_result res = VKMD_OK;
    *out_time_ps = 0;
    if (index < 0 || index >= r->info.frame_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: frame %d of %d", path, index + 1,
                         r->info.frame_count);
    const size_t at[1] = {(size_t)index};
    if (r->ids.var_time >= 0)
        NC(nc_get_var1_double(r->ids.ncid, r->ids.var_time, at, out_time_ps), VKMD_ERROR_PARSE,
           "cannot read the time");
    if (!isfinite(*out_time_ps))
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: frame %d: time %g ps is not finite", path, index + 1,
                        *out_time_ps);
cleanup:
    return res;
}

void vkmd_netcdf_reader_close(vkmd_netcdf_reader *r)
{
    if (!r)
        return;
    if (r->ids.ncid >= 0)
        nc_close(r->ids.ncid);
    free(r->path);
    free(r);
}

/* ---- append: reopen, keeping the first frames --------------------------- */

/* Copies the first `keep` frames of reader `src` into a new file `tmp` made
 * for `desc`. */
static vkmd_result copy_frames(vkmd_netcdf_reader *src, const char *tmp,
                               const vkmd_netcdf_desc *desc, int32_t keep)
{
    vkmd_netcdf_writer *w = NULL;
    vkmd_result res = VKMD_OK;
    const size_t n3 = 3 * (size_t)desc->atom_count;
    double *x = malloc(sizeof *x * n3), *v = malloc(sizeof *v * n3);
    if (!x || !v) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", tmp);
        goto cleanup;
    }
    VKMD_TRY(vkmd_netcdf_writer_create(tmp, desc, &w));
    for (int32_t f = 0; f < keep; ++f) {
        vkmd_box box;
        double t;
        VKMD_TRY(vkmd_netcdf_reader_frame(src, f, x, v, &box, &t));
        VKMD_TRY(vkmd_netcdf_writer_append(w, t, x, v, &box));
    }
cleanup:
    if (w) {
        const vkmd_result cres = vkmd_netcdf_writer_close(w);
        if (res == VKMD_OK)
            res = cres;
    }
    free(x);
    free(v);
    return res;
}

vkmd_result vkmd_netcdf_writer_open_append(const char *path, const vkmd_netcdf_desc *desc,
                                           int32_t keep, vkmd_netcdf_writer **out_w)
{
    *out_w = NULL;
    vkmd_netcdf_reader *r = NULL;
    vkmd_netcdf_writer *w = NULL;
    char *tmp = NULL;
    VKMD_TRY_RETURN(vkmd_netcdf_reader_open(path, &r));
    vkmd_result res = VKMD_OK;
    const vkmd_netcdf_info *in = &r->info;
    if (in->restart) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: an AMBER NetCDF restart, not a trajectory", path);
        goto cleanup;
    }
    if (in->atom_count != desc->atom_count || in->periodic != !!desc->periodic ||
        in->velocities != !!desc->velocities) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "%s: the file has %d atoms, cell %d, velocities %d; the run writes %d "
                        "atoms, cell %d, velocities %d",
                        path, in->atom_count, in->periodic, in->velocities, desc->atom_count,
                        !!desc->periodic, !!desc->velocities);
        goto cleanup;
    }
    if (keep < 0 || keep > in->frame_count) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: has %d frames, %d are needed: frames are lost", path,
                        in->frame_count, keep);
        goto cleanup;
    }
    const int32_t frames = in->frame_count;
    vkmd_netcdf_desc d = *desc;
    d.title = in->title;
    if (frames > keep) {
        const size_t n = strlen(path);
        tmp = malloc(n + 5);
        if (!tmp) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
            goto cleanup;
        }
        memcpy(tmp, path, n);
        memcpy(tmp + n, ".tmp", 5);
        res = copy_frames(r, tmp, &d, keep);
        vkmd_netcdf_reader_close(r);
        r = NULL;
        if (res == VKMD_OK && rename(tmp, path) != 0)
            res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot replace with %s: %s", path, tmp,
                            strerror(errno));
        if (res != VKMD_OK) {
            remove(tmp);
            goto cleanup;
        }
    }
    vkmd_netcdf_reader_close(r);
    r = NULL;
    VKMD_TRY(writer_alloc(path, desc, &w));
    NC(nc_open(path, NC_WRITE, &w->ids.ncid), VKMD_ERROR_IO, "cannot reopen to append");
    {
        const int ncid = w->ids.ncid;
        NC(nc_inq_varid(ncid, "coordinates", &w->ids.var_coords), VKMD_ERROR_PARSE, "coordinates");
        NC(nc_inq_varid(ncid, "time", &w->ids.var_time), VKMD_ERROR_PARSE, "time");
        w->ids.var_vel = w->ids.var_cell_len = w->ids.var_cell_ang = -1;
        if (desc->velocities)
            NC(nc_inq_varid(ncid, "velocities", &w->ids.var_vel), VKMD_ERROR_PARSE, "velocities");
        if (desc->periodic) {
            NC(nc_inq_varid(ncid, "cell_lengths", &w->ids.var_cell_len), VKMD_ERROR_PARSE,
               "cell_lengths");
            NC(nc_inq_varid(ncid, "cell_angles", &w->ids.var_cell_ang), VKMD_ERROR_PARSE,
               "cell_angles");
        }
        nc_type type;
        NC(nc_inq_vartype(ncid, w->ids.var_coords, &type), VKMD_ERROR_PARSE, "coordinates");
        if (type != NC_FLOAT) {
            res =
                vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                          "%s: coordinates are not float: not a trajectory vkmd appends to", path);
            goto cleanup;
        }
    }
    w->frames = keep;
    *out_w = w;
    w = NULL;
cleanup:
    vkmd_netcdf_reader_close(r);
    (void)vkmd_netcdf_writer_close(w);
    free(tmp);
    return res;
}

/* ---- restarts ----------------------------------------------------------- */

vkmd_result vkmd_netcdf_write_restart(const char *path, const vkmd_system *sys, double time_ps)
{
    if (!sys->positions || sys->atom_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: the system has no coordinates to write",
                         path);
    const vkmd_netcdf_desc d = {.atom_count = sys->atom_count,
                                .periodic = sys->box.periodic,
                                .velocities = sys->velocities != NULL,
                                .title = sys->title[0] ? sys->title : "vkmd"};
    if (d.atom_count > INT32_MAX / 3)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %d atoms: too many", path, d.atom_count);
    if (d.periodic)
        VKMD_TRY_RETURN(check_box(path, &sys->box));
    vkmd_result res = VKMD_OK;
    const size_t n3 = 3 * (size_t)sys->atom_count;
    const size_t plen = strlen(path);
    char *tmp = malloc(plen + 5);
    double *v = sys->velocities ? malloc(sizeof *v * n3) : NULL;
    nc_ids ids = {.ncid = -1};
    if (!tmp || (sys->velocities && !v)) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto cleanup;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", 5);
    {
        /* Errors name the restart the user asked for, not the temporary. */
        NC(nc_create(tmp, NC_CLOBBER | NC_64BIT_OFFSET, &ids.ncid), VKMD_ERROR_IO, "cannot create");
        VKMD_TRY(define_file(path, 1, &d, &ids));
        NC(nc_put_var_double(ids.ncid, ids.var_time, &time_ps), VKMD_ERROR_IO, "cannot write");
        NC(nc_put_var_double(ids.ncid, ids.var_coords, sys->positions), VKMD_ERROR_IO,
           "cannot write");
        if (v) {
            for (size_t k = 0; k < n3; ++k)
                v[k] = sys->velocities[k] / (VKMD_NETCDF_VELOCITY_SCALE / 1000.0);
            NC(nc_put_var_double(ids.ncid, ids.var_vel, v), VKMD_ERROR_IO, "cannot write");
        }
        if (d.periodic) {
            double len[3], ang[3];
            box_cell(&sys->box, len, ang);
            NC(nc_put_var_double(ids.ncid, ids.var_cell_len, len), VKMD_ERROR_IO, "cannot write");
            NC(nc_put_var_double(ids.ncid, ids.var_cell_ang, ang), VKMD_ERROR_IO, "cannot write");
        }
        const int ncid = ids.ncid;
        ids.ncid = -1;
        NC(nc_close(ncid), VKMD_ERROR_IO, "cannot write");
        if (rename(tmp, path) != 0)
            res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot replace with %s: %s", path, tmp,
                            strerror(errno));
    }
cleanup:
    if (ids.ncid >= 0)
        nc_close(ids.ncid);
    if (res != VKMD_OK && tmp)
        remove(tmp);
    free(tmp);
    free(v);
    return res;
}

vkmd_result vkmd_netcdf_read_restart(const char *path, vkmd_system *sys, double *out_time_ps)
{
    vkmd_netcdf_reader *r = NULL;
    VKMD_TRY_RETURN(vkmd_netcdf_reader_open(path, &r));
    vkmd_result res = VKMD_OK;
    double *x = NULL, *v = NULL;
    const vkmd_netcdf_info *in = &r->info;
    if (!in->restart) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: an AMBER NetCDF trajectory (Conventions AMBER), expected a restart "
                        "(AMBERRESTART, .ncrst)",
                        path);
        goto cleanup;
    }
    if (in->atom_count != sys->atom_count) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: the file has %d atoms, the topology has %d; expected the same system",
                        path, in->atom_count, sys->atom_count);
        goto cleanup;
    }
    const size_t n3 = 3 * (size_t)in->atom_count;
    x = malloc(sizeof *x * n3);
    v = in->velocities ? malloc(sizeof *v * n3) : NULL;
    if (!x || (in->velocities && !v)) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto cleanup;
    }
    vkmd_box box;
    double t = 0;
    VKMD_TRY(vkmd_netcdf_reader_frame(r, 0, x, v, &box, &t));
    free(sys->positions);
    sys->positions = x;
    x = NULL;
    if (v) {
        free(sys->velocities);
        sys->velocities = v;
        v = NULL;
    }
    if (box.periodic)
        sys->box = box;
    if (out_time_ps)
        *out_time_ps = t;
cleanup:
    vkmd_netcdf_reader_close(r);
    free(x);
    free(v);
    return res;
}
