/* What `vkmd energy` computes and how it prints it (text table or JSON with
 * units), shared by the CPU and GPU paths. */
#ifndef VKMD_TOOLS_ENERGY_REPORT_H
#define VKMD_TOOLS_ENERGY_REPORT_H

#include "precision_options.h"
#include "system/ff_settings.h"

#include <stdio.h>

typedef struct energy_request {
    const char *system;      /* prmtop path or water:N */
    const char *coords;      /* coordinate file or NULL */
    const char *forces_path; /* --forces FILE or NULL */
    const char *device;      /* "cpu" or a Vulkan device index / name substring */
    const char *device_name; /* filled by the path that ran */
    char device_label[320];  /* storage for device_name on the GPU path */
    int json;
    vkmd_ff_settings ff;
    precision_options precision;  /* --precision / --positions / --nonbonded */
    vkmd_precision_choice choice; /* what they resolved to (filled by the path that ran) */
} energy_request;

vkmd_result energy_report_print(const energy_request *req, const vkmd_system *sys,
                                const vkmd_energy *e, FILE *out);
/* Writes req->forces_path: header with units and device, then "index fx fy fz" in kcal/mol/A. */
vkmd_result energy_report_write_forces(const energy_request *req, const vkmd_system *sys,
                                       const double *forces);

/* Every term on the Vulkan device req->device (energy_gpu.c); fills e and
 * forces [3 * atom_count] (may be NULL). */
vkmd_result energy_gpu(energy_request *req, const vkmd_system *sys, vkmd_energy *e, double *forces);

#endif
