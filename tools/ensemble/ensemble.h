/* The subcommands of vkmd-mpi (tools/ensemble/): each runs on every rank of
 * `comm` with the same arguments and returns the rank's exit code (0 ok, 1
 * failure, 2 usage error); every rank returns (no rank waits for ever on a
 * failed one). */
#ifndef VKMD_TOOLS_ENSEMBLE_ENSEMBLE_H
#define VKMD_TOOLS_ENSEMBLE_ENSEMBLE_H

#include <mpi.h>

/* vkmd-mpi ensemble SYSTEM ...: independent replicas, --multidir systems or
 * temperature replica exchange (ensemble.c). */
int cmd_ensemble(int argc, char **argv, MPI_Comm comm);

#endif
