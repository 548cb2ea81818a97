/* Writes the seed inputs that tests/data has no file of (a DCD trajectory, a
 * checkpoint, an XSF grid, AMBER NetCDF files) with the engine's own
 * writers, so the fuzzers start from valid files: seed_writer DIR writes
 * DIR/dcd/seed.dcd, DIR/checkpoint/seed.chk, DIR/xsf/seed.xsf and
 * DIR/netcdf/seed{0,1}.nc and seed.ncrst (the directories exist). */
#include "io/checkpoint.h"
#include "io/dcd.h"
#include "io/netcdf.h"
#include "io/xsf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, vkmd_result r)
{
    fprintf(stderr, "seed_writer: %s: %s\n", what, vkmd_last_error());
    return r == VKMD_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_writer DIR\n");
        return 2;
    }
    char path[4096];
    double xyz[9] = {0, 0, 0, 0.96, 0, 0, -0.24, 0.93, 0};
    double vel[9] = {0.001, 0, 0, 0, 0.002, 0, 0, 0, -0.003};

    for (int periodic = 0; periodic < 2; ++periodic) {
        snprintf(path, sizeof path, "%s/dcd/seed%d.dcd", argv[1], periodic);
        const vkmd_dcd_desc d = {.atom_count = 3,
                                 .periodic = periodic,
                                 .dt_fs = 2,
                                 .steps_per_frame = 10,
                                 .title = "seed"};
        vkmd_dcd_writer *w = NULL;
        vkmd_result r = vkmd_dcd_writer_create(path, &d, &w);
        const vkmd_box box = {.periodic = periodic, .len = {10, 11, 12}};
        for (int f = 0; r == VKMD_OK && f < 2; ++f)
            r = vkmd_dcd_writer_append(w, xyz, &box);
        if (w && vkmd_dcd_writer_close(w) != VKMD_OK && r == VKMD_OK)
            r = VKMD_ERROR_IO;
        if (r != VKMD_OK)
            return fail(path, r);
    }

    for (int periodic = 0; periodic < 2; ++periodic) {
        snprintf(path, sizeof path, "%s/netcdf/seed%d.nc", argv[1], periodic);
        const vkmd_netcdf_desc d = {
            .atom_count = 3, .periodic = periodic, .velocities = periodic, .title = "seed"};
        vkmd_netcdf_writer *w = NULL;
        vkmd_result r = vkmd_netcdf_writer_create(path, &d, &w);
        vkmd_box box = {0};
        vkmd_box_set_rect(&box, (const double[3]){10, 11, 12});
        for (int f = 0; r == VKMD_OK && f < 2; ++f)
            r = vkmd_netcdf_writer_append(w, 0.02 * (f + 1), xyz, vel, &box);
        if (w && vkmd_netcdf_writer_close(w) != VKMD_OK && r == VKMD_OK)
            r = VKMD_ERROR_IO;
        if (r != VKMD_OK)
            return fail(path, r);
    }
    {
        snprintf(path, sizeof path, "%s/netcdf/seed.ncrst", argv[1]);
        vkmd_system sys = {.atom_count = 3, .positions = xyz, .velocities = vel};
        vkmd_box_set_rect(&sys.box, (const double[3]){10, 11, 12});
        const vkmd_result r = vkmd_netcdf_write_restart(path, &sys, 0.2);
        if (r != VKMD_OK)
            return fail(path, r);
    }

    snprintf(path, sizeof path, "%s/checkpoint/seed.chk", argv[1]);
    char settings[] = "integrator langevin\ndt_fs 2\n";
    vkmd_checkpoint c = {.atom_count = 3,
                         .periodic = 1,
                         .fingerprint = 42,
                         .step = 100,
                         .md_step = 100,
                         .time_ps = 0.2,
                         .box = {10, 11, 12},
                         .seed = 7,
                         .settings = settings,
                         .positions = xyz,
                         .velocities = vel};
    vkmd_result r = vkmd_checkpoint_write(path, &c);
    if (r != VKMD_OK)
        return fail(path, r);

    snprintf(path, sizeof path, "%s/xsf/seed.xsf", argv[1]);
    float values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    vkmd_xsf_grid g = {.name = "seed",
                       .n = {2, 2, 2},
                       .span = {{4, 0, 0}, {0, 4, 0}, {0, 0, 4}},
                       .values = values};
    vkmd_xsf x = {.comment = "seed",
                  .primvec = {{4, 0, 0}, {0, 4, 0}, {0, 0, 4}},
                  .grid_count = 1,
                  .grids = &g};
    r = vkmd_xsf_write(path, &x);
    if (r != VKMD_OK)
        return fail(path, r);
    return 0;
}
