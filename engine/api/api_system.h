/* The public system handle (include/vkmd.h vkmd_sys) over the engine's
 * host-side system, for the other api/ files. */
#ifndef VKMD_API_API_SYSTEM_H
#define VKMD_API_API_SYSTEM_H

#include "vkmd.h"
#include "system/gb_settings.h"
#include "system/system.h"

struct vkmd_sys {
    vkmd_system system;  /* owned */
    double hmr_amu;      /* hydrogen mass given to vkmd_sys_repartition_hydrogen_mass, 0 if none */
    char source[512];    /* the coordinates' file (or spec) for messages */
    char spec[512];      /* the system as given (prmtop path or water:N), for reports */
    vkmd_gb_settings gb; /* implicit solvent (vkmd_sys_set_implicit_solvent); model NONE: none */
};

#endif
