/* AMBER NetCDF trajectories and restarts (io/netcdf.h), no device:
 *   - a trajectory of water:20 (4 frames, a box that grows, velocities)
 *     written and read back: counts, title, program, coordinates as the
 *     float32 values written, velocities to float precision, box lengths
 *     and 90-degree angles, time; a vacuum trajectory has no cell;
 *   - reopening to append after 2 of the 4 frames (a checkpoint restart)
 *     keeps those two and adds the new one; asking for more frames than the
 *     file holds, or another atom count, is refused;
 *   - a restart (doubles) through vkmd_coords_read_amber (the --coords
 *     path): positions bit for bit, velocities to the last bit of a double
 *     (the same float), box and time; without velocities or box the system
 *     keeps its own; a truncated octahedron's lengths, angles and reduced
 *     vectors come back bit for bit;
 *   - bad files give clear errors naming the file: missing, empty, text,
 *     cut-off NetCDF, foreign NetCDF, another ConventionVersion, a
 *     trajectory given as a restart, another atom count, a wrong spatial
 *     dimension, no coordinates, a NaN coordinate (atom named), a cell
 *     without angles, a file cut off in its data, a NetCDF-4
 *     (HDF5) file; the writer refuses a NaN (nothing
 *     written) and an uncreatable path. */
#include "io/coords.h"
#include "io/frame_source.h"
#include "io/netcdf.h"
#include "system/water_tile.h"
#include "testlib.h"

#include <math.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DIR VKMD_TEST_GEN_DIR "/io_netcdf"

enum { FRAMES = 4 };

static void frame_of(const vkmd_system *sys, int f, double *xyz, double *vel, vkmd_box *box)
{
    for (int32_t i = 0; i < 3 * sys->atom_count; ++i) {
        xyz[i] = sys->positions[i] + 0.7 * f * sin(0.91 * i + f);
        vel[i] = 0.01 * cos(0.37 * i + 2 * f);
    }
    *box = sys->box;
    for (int k = 0; k < 3; ++k)
        box->len[k] += 0.25 * f + 0.01 * k;
}

/* The last error names `path` and contains `want`. */
static void check_error(vkmd_result got, vkmd_result want_code, const char *path, const char *want)
{
    const char *msg = vkmd_last_error();
    printf("  %s: %s\n", vkmd_result_str(got), msg);
    CHECK_MSG(got == want_code, "expected %s, got %s", vkmd_result_str(want_code),
              vkmd_result_str(got));
    CHECK_MSG(strstr(msg, path) != NULL, "message does not name %s", path);
    CHECK_MSG(strstr(msg, want) != NULL, "message lacks '%s'", want);
}

static double max_frame_error(vkmd_netcdf_reader *r, const vkmd_system *sys, int32_t index, int f,
                              double *x, double *v, double *gx, double *gv, double *out_vel_rel,
                              double *out_box, double *out_time)
{
    vkmd_box want_box, got_box;
    frame_of(sys, f, x, v, &want_box);
    double t = -1;
    CHECK_OK(vkmd_netcdf_reader_frame(r, index, gx, gv, &got_box, &t));
    double worst = 0, vrel = 0, wb = 0;
    for (int32_t i = 0; i < 3 * sys->atom_count; ++i) {
        worst = fmax(worst, fabs(gx[i] - (double)(float)x[i]));
        vrel = fmax(vrel, fabs(gv[i] - v[i]) / fmax(fabs(v[i]), 1e-3));
    }
    if (got_box.periodic)
        for (int k = 0; k < 3; ++k) {
            wb = fmax(wb, fabs(got_box.len[k] - want_box.len[k]));
            wb = fmax(wb, fabs(got_box.angle_deg[k] - 90.0));
        }
    *out_vel_rel = fmax(*out_vel_rel, vrel);
    *out_box = fmax(*out_box, wb);
    *out_time = fmax(*out_time, fabs(t - (double)(float)(0.5 * (f + 1))));
    return worst;
}

static void trajectory(const vkmd_system *sys)
{
    printf("trajectory:\n");
    const char *path = DIR "/traj.nc";
    const int32_t n = sys->atom_count;
    const size_t n3 = 3 * (size_t)n;
    double *x = malloc(sizeof *x * n3), *v = malloc(sizeof *v * n3);
    double *gx = malloc(sizeof *gx * n3), *gv = malloc(sizeof *gv * n3);
    CHECK(x && v && gx && gv);
    if (!x || !v || !gx || !gv)
        goto done;
    const vkmd_netcdf_desc d = {
        .atom_count = n, .periodic = 1, .velocities = 1, .title = "water:20 round trip"};
    vkmd_netcdf_writer *w = NULL;
    CHECK_OK(vkmd_netcdf_writer_create(path, &d, &w));
    for (int f = 0; f < FRAMES && w; ++f) {
        vkmd_box box;
        frame_of(sys, f, x, v, &box);
        CHECK_OK(vkmd_netcdf_writer_append(w, 0.5 * (f + 1), x, v, &box));
    }
    /* A NaN coordinate: refused, nothing written. */
    vkmd_box box;
    frame_of(sys, 0, x, v, &box);
    x[7] = NAN;
    if (w) {
        check_error(vkmd_netcdf_writer_append(w, 9.0, x, v, &box), VKMD_ERROR_NUMERIC, path,
                    "coordinate of atom 3");
        CHECK(vkmd_netcdf_writer_frame_count(w) == FRAMES);
    }
    CHECK_OK(vkmd_netcdf_writer_close(w));

    vkmd_netcdf_reader *r = NULL;
    CHECK_OK(vkmd_netcdf_reader_open(path, &r));
    if (r) {
        const vkmd_netcdf_info *in = vkmd_netcdf_reader_info(r);
        printf("  %d frames of %d atoms, periodic %d, velocities %d, title '%s', program '%s'\n",
               in->frame_count, in->atom_count, in->periodic, in->velocities, in->title,
               in->program);
        CHECK(!in->restart && in->frame_count == FRAMES && in->atom_count == n && in->periodic &&
              in->velocities && in->has_time);
        CHECK(!strcmp(in->title, "water:20 round trip") && !strcmp(in->program, "vkmd"));
        double worst = 0, vrel = 0, wb = 0, wt = 0;
        for (int f = 0; f < FRAMES; ++f)
            worst = fmax(worst, max_frame_error(r, sys, f, f, x, v, gx, gv, &vrel, &wb, &wt));
        printf("  max |x - float(written)| %g A, velocity %.3g relative, box %.3g, time %.3g\n",
               worst, vrel, wb, wt);
        CHECK(worst == 0 && vrel < 1e-6 && wb == 0 && wt == 0);
        check_error(vkmd_netcdf_reader_frame(r, FRAMES, gx, NULL, NULL, NULL),
                    VKMD_ERROR_INVALID_ARGUMENT, path, "frame 5 of 4");
    }
    vkmd_netcdf_reader_close(r);

    /* Append after 2 frames: frame 3 is then the new one. */
    printf("append after 2 of %d frames:\n", FRAMES);
    w = NULL;
    CHECK_OK(vkmd_netcdf_writer_open_append(path, &d, 2, &w));
    if (w) {
        CHECK(vkmd_netcdf_writer_frame_count(w) == 2);
        frame_of(sys, 3, x, v, &box);
        CHECK_OK(vkmd_netcdf_writer_append(w, 0.5 * 4, x, v, &box));
    }
    CHECK_OK(vkmd_netcdf_writer_close(w));
    r = NULL;
    CHECK_OK(vkmd_netcdf_reader_open(path, &r));
    if (r) {
        const vkmd_netcdf_info *in = vkmd_netcdf_reader_info(r);
        CHECK(in->frame_count == 3 && !strcmp(in->title, "water:20 round trip"));
        double worst = 0, vrel = 0, wb = 0, wt = 0;
        for (int k = 0; k < 3 && k < in->frame_count; ++k)
            worst = fmax(worst,
                         max_frame_error(r, sys, k, k < 2 ? k : 3, x, v, gx, gv, &vrel, &wb, &wt));
        printf("  %d frames; max |x - written| %g A, box %.3g, time %.3g\n", in->frame_count, worst,
               wb, wt);
        CHECK(worst == 0 && vrel < 1e-6 && wb == 0 && wt == 0);
    }
    vkmd_netcdf_reader_close(r);

    /* Append after all 3 (no rewrite), then drop it again: 4, then 3 frames. */
    w = NULL;
    CHECK_OK(vkmd_netcdf_writer_open_append(path, &d, 3, &w));
    if (w) {
        CHECK_OK(vkmd_netcdf_writer_append(w, 0.5 * 4, x, v, &box));
        CHECK(vkmd_netcdf_writer_frame_count(w) == 4);
    }
    CHECK_OK(vkmd_netcdf_writer_close(w));
    w = NULL;
    CHECK_OK(vkmd_netcdf_writer_open_append(path, &d, 3, &w));
    CHECK_OK(vkmd_netcdf_writer_close(w));

    /* What `vkmd view water:20 --traj traj.nc` plays. */
    vkmd_frame_source fs;
    CHECK_OK(vkmd_frame_source_open("water:20", NULL, path, &fs));
    float *x4 = malloc(sizeof *x4 * 4 * (size_t)n);
    CHECK(x4 != NULL);
    if (x4 && fs.frame_count == 3) {
        CHECK_OK(vkmd_frame_source_read(&fs, 2, x4));
        printf("frame source: %d frames, frame 3 at %g ps, box %g A\n", fs.frame_count,
               vkmd_frame_source_time_ps(&fs, 2), fs.sys.box.len[0]);
        CHECK(vkmd_frame_source_time_ps(&fs, 1) == 1.0 && vkmd_frame_source_time_ps(&fs, 2) == 2.0);
        CHECK(fs.sys.box.periodic && fs.sys.box.len[0] == box.len[0]);
    } else {
        CHECK_MSG(0, "frame source: %d frames, expected 3", fs.frame_count);
    }
    free(x4);
    vkmd_frame_source_close(&fs);

    w = NULL;
    check_error(vkmd_netcdf_writer_open_append(path, &d, 5, &w), VKMD_ERROR_PARSE, path,
                "frames are lost");
    vkmd_netcdf_desc other = d;
    other.atom_count = n + 3;
    check_error(vkmd_netcdf_writer_open_append(path, &other, 1, &w), VKMD_ERROR_INVALID_ARGUMENT,
                path, "63 atoms");
    CHECK(w == NULL);

    /* Vacuum: no cell. */
    const char *vac = DIR "/vacuum.nc";
    const vkmd_netcdf_desc dv = {.atom_count = n};
    CHECK_OK(vkmd_netcdf_writer_create(vac, &dv, &w));
    if (w)
        CHECK_OK(vkmd_netcdf_writer_append(w, 1.0, x, NULL, NULL));
    CHECK_OK(vkmd_netcdf_writer_close(w));
    r = NULL;
    CHECK_OK(vkmd_netcdf_reader_open(vac, &r));
    if (r) {
        const vkmd_netcdf_info *in = vkmd_netcdf_reader_info(r);
        CHECK(in->frame_count == 1 && !in->periodic && !in->velocities);
        vkmd_box b;
        memset(&b, 0x55, sizeof b);
        CHECK_OK(vkmd_netcdf_reader_frame(r, 0, gx, gv, &b, NULL));
        CHECK(b.periodic == 0 && gv[0] == 0);
        printf("vacuum: 1 frame, no cell, velocities read as zeros\n");
    }
    vkmd_netcdf_reader_close(r);
    check_error(vkmd_netcdf_writer_create(DIR "/no/such/dir/x.nc", &dv, &w), VKMD_ERROR_IO,
                DIR "/no/such/dir/x.nc", "cannot create");
done:
    free(x);
    free(v);
    free(gx);
    free(gv);
}

static void restart(const vkmd_system *sys)
{
    printf("restart:\n");
    const char *path = DIR "/state.ncrst";
    vkmd_system s = *sys;
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *v = malloc(sizeof *v * n3);
    CHECK(v != NULL);
    if (!v)
        return;
    for (size_t k = 0; k < n3; ++k)
        v[k] = (double)(float)(0.013 * sin(1.7 * (double)k)); /* device velocities are floats */
    s.velocities = v;
    s.box.len[1] += 0.125;
    CHECK_OK(vkmd_netcdf_write_restart(path, &s, 12.5));
    struct stat st;
    CHECK_MSG(stat(DIR "/state.ncrst.tmp", &st) != 0, "the temporary file is left");

    vkmd_system back = {0};
    back.atom_count = sys->atom_count;
    CHECK_OK(vkmd_coords_read_amber(path, &back));
    double t = 0;
    CHECK_OK(vkmd_netcdf_read_restart(path, &back, &t));
    int same_x = back.positions && !memcmp(back.positions, s.positions, sizeof(double) * n3);
    double vmax = 0;
    int same_float = back.velocities != NULL;
    for (size_t k = 0; back.velocities && k < n3; ++k) {
        vmax = fmax(vmax, fabs(back.velocities[k] - v[k]) / fmax(fabs(v[k]), 1e-300));
        same_float &= (float)back.velocities[k] == (float)v[k];
    }
    printf("  positions bitwise %d, velocities max rel %.3g (same floats %d), box %g %g %g "
           "(angles %g), time %g ps\n",
           same_x, vmax, same_float, back.box.len[0], back.box.len[1], back.box.len[2],
           back.box.angle_deg[0], t);
    CHECK(same_x && same_float && vmax < 1e-15);
    CHECK(back.box.periodic && !back.box.triclinic && back.box.len[1] == s.box.len[1] &&
          back.box.len[0] == s.box.len[0] && back.box.angle_deg[2] == 90.0);
    CHECK(t == 12.5);
    vkmd_system_destroy(&back);

    /* A truncated octahedron: lengths and angles back exactly, the same
     * reduced vectors. */
    {
        const double oct = acos(-1.0 / 3.0) * 180.0 / M_PI;
        vkmd_system so = s;
        CHECK_OK(vkmd_box_set(&so.box, (const double[3]){40, 40, 40},
                              (const double[3]){oct, oct, oct}, "octahedron"));
        const char *po = DIR "/oct.ncrst";
        CHECK_OK(vkmd_netcdf_write_restart(po, &so, 1.0));
        vkmd_system bo = {0};
        bo.atom_count = sys->atom_count;
        CHECK_OK(vkmd_coords_read_amber(po, &bo));
        CHECK(bo.box.periodic && bo.box.triclinic);
        CHECK(!memcmp(bo.box.len, so.box.len, sizeof bo.box.len) &&
              !memcmp(bo.box.angle_deg, so.box.angle_deg, sizeof bo.box.angle_deg) &&
              !memcmp(bo.box.vec, so.box.vec, sizeof bo.box.vec));
        printf("  octahedron: angles %.7f %.7f %.7f back bit for bit\n", bo.box.angle_deg[0],
               bo.box.angle_deg[1], bo.box.angle_deg[2]);
        vkmd_system_destroy(&bo);
    }

    /* No velocities, no box: the system keeps its own. */
    vkmd_system bare = *sys;
    bare.velocities = NULL;
    bare.box.periodic = 0;
    const char *p2 = DIR "/bare.ncrst";
    CHECK_OK(vkmd_netcdf_write_restart(p2, &bare, 0));
    vkmd_system b2 = {0};
    b2.atom_count = sys->atom_count;
    b2.box.periodic = 1;
    b2.box.len[0] = b2.box.len[1] = b2.box.len[2] = 33;
    CHECK_OK(vkmd_coords_read_amber(p2, &b2));
    CHECK(b2.positions && !b2.velocities && b2.box.periodic && b2.box.len[0] == 33);
    printf("  without velocities and box: the system's own kept (box %g)\n", b2.box.len[0]);
    vkmd_system_destroy(&b2);

    /* Given as a trajectory to the viewer's reader: one frame. */
    vkmd_netcdf_reader *r = NULL;
    CHECK_OK(vkmd_netcdf_reader_open(path, &r));
    if (r)
        CHECK(vkmd_netcdf_reader_info(r)->restart && vkmd_netcdf_reader_info(r)->frame_count == 1);
    vkmd_netcdf_reader_close(r);
    free(v);
}

/* A small NetCDF file of 2 atoms: the given Conventions and
 * ConventionVersion (NULL: none), spatial dimension, coordinates (or none,
 * or one NaN), and cell (0 none, 1 lengths only, 2 lengths and triclinic
 * angles). */
static int make_nc(const char *path, const char *conv, const char *version, int spatial, int coords,
                   int nan, int cell)
{
    int ncid, d_atom, d_sp, d_cs, d_ca, v_x, v_len, v_ang;
    if (nc_create(path, NC_CLOBBER, &ncid) != NC_NOERR)
        return 0;
    if (conv)
        nc_put_att_text(ncid, NC_GLOBAL, "Conventions", strlen(conv), conv);
    if (version)
        nc_put_att_text(ncid, NC_GLOBAL, "ConventionVersion", strlen(version), version);
    nc_def_dim(ncid, "atom", 2, &d_atom);
    nc_def_dim(ncid, "spatial", (size_t)spatial, &d_sp);
    nc_def_dim(ncid, "cell_spatial", 3, &d_cs);
    nc_def_dim(ncid, "cell_angular", 3, &d_ca);
    const int xd[2] = {d_atom, d_sp};
    if (coords)
        nc_def_var(ncid, "coordinates", NC_DOUBLE, 2, xd, &v_x);
    if (cell) {
        nc_def_var(ncid, "cell_lengths", NC_DOUBLE, 1, &d_cs, &v_len);
        if (cell > 1)
            nc_def_var(ncid, "cell_angles", NC_DOUBLE, 1, &d_ca, &v_ang);
    }
    nc_enddef(ncid);
    double x[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    if (nan)
        x[4] = NAN;
    if (coords)
        nc_put_var_double(ncid, v_x, x);
    const double len[3] = {20, 20, 20}, ang[3] = {109.4712206, 109.4712206, 109.4712206};
    if (cell)
        nc_put_var_double(ncid, v_len, len);
    if (cell > 1)
        nc_put_var_double(ncid, v_ang, ang);
    return nc_close(ncid) == NC_NOERR;
}

static void bad_files(void)
{
    printf("bad files:\n");
    vkmd_system s = {0};
    s.atom_count = 2;
    char p[512];
    const vkmd_result missing = vkmd_netcdf_read_restart(DIR "/missing.ncrst", &s, NULL);
    check_error(missing, VKMD_ERROR_IO, DIR "/missing.ncrst", "cannot open");

    FILE *f = fopen(DIR "/empty.ncrst", "wb");
    CHECK(f && fclose(f) == 0);
    check_error(vkmd_netcdf_read_restart(DIR "/empty.ncrst", &s, NULL), VKMD_ERROR_PARSE,
                DIR "/empty.ncrst", "not a readable NetCDF file");
    f = fopen(DIR "/text.ncrst", "wb");
    CHECK(f && fputs("title\n    2\n", f) >= 0 && fclose(f) == 0);
    check_error(vkmd_netcdf_read_restart(DIR "/text.ncrst", &s, NULL), VKMD_ERROR_PARSE,
                DIR "/text.ncrst", "not a readable NetCDF file");
    /* A cut-off NetCDF header, through the --coords path. */
    const char *cut = VKMD_TEST_BROKEN_DIR "/netcdf.rst7";
    check_error(vkmd_coords_read_amber(cut, &s), VKMD_ERROR_PARSE, cut, "NetCDF");

    struct {
        const char *name, *conv, *version;
        int spatial, coords, nan, cell;
        vkmd_result code;
        const char *want;
    } cases[] = {
        {"foreign", NULL, NULL, 3, 1, 0, 0, VKMD_ERROR_PARSE, "not an AMBER trajectory"},
        {"version", "AMBERRESTART", "2.0", 3, 1, 0, 0, VKMD_ERROR_UNSUPPORTED,
         "ConventionVersion '2.0'"},
        {"spatial", "AMBERRESTART", "1.0", 4, 1, 0, 0, VKMD_ERROR_PARSE,
         "'spatial' is missing or 4"},
        {"nocoords", "AMBERRESTART", "1.0", 3, 0, 0, 0, VKMD_ERROR_PARSE,
         "no variable 'coordinates'"},
        {"nan", "AMBERRESTART", "1.0", 3, 1, 1, 0, VKMD_ERROR_PARSE, "coordinate of atom 2 is nan"},
        {"noangles", "AMBERRESTART", "1.0", 3, 1, 0, 1, VKMD_ERROR_PARSE,
         "cell_lengths without cell_angles"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        snprintf(p, sizeof p, "%s/%s.ncrst", DIR, cases[k].name);
        CHECK(make_nc(p, cases[k].conv, cases[k].version, cases[k].spatial, cases[k].coords,
                      cases[k].nan, cases[k].cell));
        check_error(vkmd_netcdf_read_restart(p, &s, NULL), cases[k].code, p, cases[k].want);
    }
    /* A restart cut off in its data (libnetcdf would read zeros there). */
    {
        size_t len = 0;
        char *whole = test_read_file(DIR "/state.ncrst", &len);
        CHECK(whole != NULL && len > 200);
        snprintf(p, sizeof p, "%s/cut.ncrst", DIR);
        FILE *cf = fopen(p, "wb");
        CHECK(cf && whole && fwrite(whole, 1, len - 200, cf) == len - 200 && fclose(cf) == 0);
        free(whole);
        check_error(vkmd_netcdf_read_restart(p, &s, NULL), VKMD_ERROR_PARSE, p,
                    "the file is cut off: its header describes data up to byte");
    }
    /* NetCDF-4 (HDF5): refused before libnetcdf hands it to HDF5. */
    snprintf(p, sizeof p, "%s/hdf5.ncrst", DIR);
    int ncid;
    CHECK(nc_create(p, NC_CLOBBER | NC_NETCDF4, &ncid) == NC_NOERR && nc_close(ncid) == NC_NOERR);
    check_error(vkmd_netcdf_read_restart(p, &s, NULL), VKMD_ERROR_UNSUPPORTED, p,
                "a NetCDF-4 (HDF5) file");
    /* A trajectory where a restart is asked for, and another atom count. */
    snprintf(p, sizeof p, "%s/traj.nc", DIR);
    check_error(vkmd_netcdf_read_restart(p, &s, NULL), VKMD_ERROR_PARSE, p, "expected a restart");
    snprintf(p, sizeof p, "%s/state.ncrst", DIR);
    check_error(vkmd_netcdf_read_restart(p, &s, NULL), VKMD_ERROR_PARSE, p,
                "the file has 60 atoms, the topology has 2");
    CHECK(s.positions == NULL && s.velocities == NULL);
}

int main(void)
{
    mkdir(DIR, 0777);
    vkmd_system sys;
    CHECK_OK(vkmd_water_tile_build(20, &sys, NULL));
    CHECK(sys.atom_count == 60 && sys.box.periodic);
    if (sys.atom_count == 60) {
        trajectory(&sys);
        restart(&sys);
        bad_files();
    }
    vkmd_system_destroy(&sys);
    return test_finish("test_io_netcdf");
}
