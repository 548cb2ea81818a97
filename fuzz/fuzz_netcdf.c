/* Fuzzes the AMBER NetCDF reader (io/netcdf.c, over libnetcdf): the layout
 * checks, then up to 8 frames (coordinates, velocities, cell, time) when the
 * input is large enough to hold one frame of floats (a header may declare any
 * atom count), then the restart path into a system of the file's atoms. */
#include "fuzz_input.h"
#include "io/netcdf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".nc");
    if (!path)
        return 0;
    vkmd_netcdf_reader *r = NULL;
    if (vkmd_netcdf_reader_open(path, &r) != VKMD_OK)
        return 0;
    const vkmd_netcdf_info info = *vkmd_netcdf_reader_info(r);
    const size_t n3 = 3 * (size_t)info.atom_count;
    double *xyz = NULL, *vel = NULL;
    if (n3 * sizeof(float) <= size) {
        xyz = malloc(n3 * sizeof *xyz);
        vel = malloc(n3 * sizeof *vel);
    }
    for (int32_t f = 0; xyz && vel && f < info.frame_count && f < 8; ++f) {
        vkmd_box box;
        double t;
        (void)vkmd_netcdf_reader_frame(r, f, xyz, vel, &box, &t);
    }
    free(xyz);
    free(vel);
    vkmd_netcdf_reader_close(r);
    if (info.restart && n3 * sizeof(float) <= size) {
        vkmd_system sys;
        memset(&sys, 0, sizeof sys);
        sys.atom_count = info.atom_count;
        (void)vkmd_netcdf_read_restart(path, &sys, NULL);
        free(sys.positions);
        free(sys.velocities);
    }
    return 0;
}
