/* vkmd-mpi uff relax | scan LIBRARY: a UFF screen of a molecule library split
 * across MPI ranks, results gathered in input order (uff_screen.c). */
#ifndef VKMD_TOOLS_ENSEMBLE_UFF_SCREEN_H
#define VKMD_TOOLS_ENSEMBLE_UFF_SCREEN_H

#include <mpi.h>

/* argv[0] is "uff", argv[1] "relax" or "scan"; returns the rank's exit code
 * (0 ok, 1 failure, 2 usage error). */
int cmd_uff_screen(int argc, char **argv, MPI_Comm comm);

#endif
