/* Frames of a structure or trajectory for drawing (see frame_source.h). */
#include "io/frame_source.h"
#include "io/load.h"
#include "io/uff_load.h"
#include "system/molecule_system.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when the file at `path` starts as a NetCDF file does (classic, 64-bit
 * offset or HDF5-based NetCDF-4). */
static int starts_as_netcdf(const char *path)
{
    unsigned char head[4] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    const size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return (n >= 3 && memcmp(head, "CDF", 3) == 0) || (n == 4 && memcmp(head, "\x89HDF", 4) == 0);
}

/* The NetCDF trajectory (or restart, one frame) `traj` into s. */
static vkmd_result open_netcdf(vkmd_frame_source *s, const char *system, const char *traj)
{
    VKMD_TRY_RETURN(vkmd_netcdf_reader_open(traj, &s->nc));
    const vkmd_netcdf_info *in = vkmd_netcdf_reader_info(s->nc);
    if (in->atom_count != s->sys.atom_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %d atoms per frame, %s has %d", traj,
                         in->atom_count, system, s->sys.atom_count);
    if (in->frame_count < 1)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: no frame", traj);
    s->frame_count = in->frame_count;
    return VKMD_OK;
}

vkmd_result vkmd_frame_source_open(const char *system, const char *coords, const char *traj,
                                   vkmd_frame_source *out)
{
    vkmd_frame_source *s = out;
    memset(s, 0, sizeof *s);
    s->frame_count = 1;
    if (vkmd_uff_molecule_spec(system)) {
        VKMD_TRY_RETURN(vkmd_uff_molecule_load(system, &s->mols, &s->mol_count));
        VKMD_TRY_RETURN(vkmd_system_from_uff_molecule(&s->mols[0], 1, NULL, &s->sys));
        s->frame_count = s->mols[0].conformer_count;
    } else {
        VKMD_TRY_RETURN(vkmd_system_load(system, coords, &s->sys));
        if (!s->sys.positions && !traj)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: no coordinates (give --coords or --traj)", system);
    }
    if (traj && starts_as_netcdf(traj)) {
        VKMD_TRY_RETURN(open_netcdf(s, system, traj));
        if (!s->sys.positions) {
            s->sys.positions = calloc(3 * (size_t)s->sys.atom_count, sizeof(double));
            if (!s->sys.positions)
                return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "view: out of memory");
        }
        VKMD_TRY_RETURN(
            vkmd_netcdf_reader_frame(s->nc, 0, s->sys.positions, NULL, &s->sys.box, NULL));
    } else if (traj) {
        VKMD_TRY_RETURN(vkmd_dcd_read_info(traj, &s->info));
        if (s->info.atom_count != s->sys.atom_count)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %d atoms per frame, %s has %d", traj,
                             s->info.atom_count, system, s->sys.atom_count);
        if (s->info.frame_count < 1)
            return vkmd_fail(VKMD_ERROR_PARSE, "%s: no complete frame", traj);
        VKMD_TRY_RETURN(vkmd_dcd_reader_open(traj, &s->dcd));
        s->frame_count = s->info.frame_count;
        if (!s->sys.positions) {
            s->sys.positions = calloc(3 * (size_t)s->sys.atom_count, sizeof(double));
            if (!s->sys.positions)
                return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "view: out of memory");
        }
        VKMD_TRY_RETURN(vkmd_dcd_reader_frame(s->dcd, 0, s->sys.positions, &s->sys.box));
    }
    VKMD_TRY_RETURN(vkmd_molecules_build(&s->sys, &s->molecules));
    s->xyz = malloc(sizeof *s->xyz * 3 * (size_t)s->sys.atom_count);
    if (!s->xyz)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "view: out of memory");
    return VKMD_OK;
}

vkmd_result vkmd_frame_source_read(vkmd_frame_source *s, int32_t index, float *out_xyzw)
{
    const size_t n3 = 3 * (size_t)s->sys.atom_count;
    if (s->dcd)
        VKMD_TRY_RETURN(vkmd_dcd_reader_frame(s->dcd, index, s->xyz, &s->sys.box));
    else if (s->nc)
        VKMD_TRY_RETURN(vkmd_netcdf_reader_frame(s->nc, index, s->xyz, NULL, &s->sys.box, NULL));
    else if (s->mol_count)
        memcpy(s->xyz, s->mols[0].positions + n3 * (size_t)index, sizeof *s->xyz * n3);
    else
        memcpy(s->xyz, s->sys.positions, sizeof *s->xyz * n3);
    if (s->sys.box.periodic)
        vkmd_molecules_make_whole(&s->sys, &s->molecules, s->xyz);
    for (int32_t i = 0; i < s->sys.atom_count; ++i)
        for (int k = 0; k < 3; ++k)
            out_xyzw[4 * i + k] = (float)s->xyz[3 * i + k];
    return VKMD_OK;
}

double vkmd_frame_source_time_ps(const vkmd_frame_source *s, int32_t index)
{
    if (s->nc) {
        double t = 0;
        return vkmd_netcdf_reader_time(s->nc, index, &t) == VKMD_OK ? t : 0;
    }
    if (!s->dcd)
        return 0;
    return (double)(s->info.first_step + (int64_t)index * s->info.steps_per_frame) * s->info.dt_fs *
           1e-3;
}

void vkmd_frame_source_close(vkmd_frame_source *s)
{
    vkmd_dcd_reader_close(s->dcd);
    vkmd_netcdf_reader_close(s->nc);
    vkmd_molecules_destroy(&s->molecules);
    vkmd_uff_molecule_array_free(s->mols, s->mol_count);
    vkmd_system_destroy(&s->sys);
    free(s->xyz);
    memset(s, 0, sizeof *s);
}
