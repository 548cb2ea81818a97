/* The frames of a structure or trajectory for drawing, what `vkmd view`
 * shows: a system as `vkmd run` takes it (AMBER prmtop or water:N, with
 * coordinates) with one frame, a small molecule (SDF/MOL, XYZ or a built-in
 * name) whose conformers are the frames, or either with a DCD or AMBER
 * NetCDF trajectory (io/netcdf.h; told apart by the file's first bytes)
 * whose frames are played. Each frame is made whole (molecules unbroken
 * across the box) on the host. No Vulkan: the caller uploads. */
#ifndef VKMD_IO_FRAME_SOURCE_H
#define VKMD_IO_FRAME_SOURCE_H

#include "io/dcd.h"
#include "io/netcdf.h"
#include "system/molecules.h"
#include "system/system.h"
#include "system/uff_molecule.h"

typedef struct vkmd_frame_source {
    vkmd_system sys;          /* what is drawn; sys.box follows the DCD's frames */
    int32_t frame_count;      /* >= 1 */
    vkmd_uff_molecule *mols;  /* a molecule SYSTEM's records (the first is shown) */
    int32_t mol_count;        /* 0 when SYSTEM is not a molecule */
    vkmd_dcd_reader *dcd;     /* NULL without a DCD trajectory */
    vkmd_dcd_info info;       /* the DCD's header */
    vkmd_netcdf_reader *nc;   /* NULL without a NetCDF trajectory */
    vkmd_molecules molecules; /* for making frames whole */
    double *xyz;              /* [3 * atoms] scratch */
} vkmd_frame_source;

/* Opens `system` (with `coords`, may be NULL, for a prmtop) and `traj` (a
 * DCD or AMBER NetCDF trajectory or restart path, may be NULL) into *out (zeroed first;
 * vkmd_frame_source_close it, also on failure). Errors: the loaders', VKMD_ERROR_INVALID_ARGUMENT
 * (no coordinates and no trajectory; a trajectory of another atom count),
 * VKMD_ERROR_PARSE (a trajectory without a complete frame),
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_frame_source_open(const char *system, const char *coords, const char *traj,
                                   vkmd_frame_source *out);

/* Frame `index` (0 .. frame_count - 1), made whole in its box, into
 * out_xyzw ([atoms][4] A as float, w untouched). Errors: the DCD or NetCDF
 * reader's. */
vkmd_result vkmd_frame_source_read(vkmd_frame_source *s, int32_t index, float *out_xyzw);

/* Simulation time of frame `index` in ps (from the DCD's header or the
 * NetCDF file's time variable; 0 without a trajectory). */
double vkmd_frame_source_time_ps(const vkmd_frame_source *s, int32_t index);

void vkmd_frame_source_close(vkmd_frame_source *s);

#endif
