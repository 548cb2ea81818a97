/* vkmd-mpi: the MPI driver of vkmd, a thin client of the engine like the
 * vkmd command: `mpirun -n R vkmd-mpi ensemble ...` (ensemble.c) and
 * `mpirun -n R vkmd-mpi uff relax|scan LIBRARY` (uff_screen.c). Built only
 * when MPI is found (tools/ensemble/CMakeLists.txt). */
#include "ensemble.h"
#include "uff_screen.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "vkmd-mpi %s (%s): vkmd over MPI, one rank per GPU\n\n"
            "usage: mpirun -n R vkmd-mpi <command> [options]\n"
            "  ensemble SYSTEM [options]   R replicas: independent walkers, --multidir\n"
            "                              systems or temperature replica exchange (--remd)\n"
            "  vkmd-mpi <command> --help for details; docs/ENSEMBLES.md for clusters\n",
            VKMD_VERSION, VKMD_GIT_COMMIT);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, code = 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (rank == 0)
            usage(argc < 2 ? stderr : stdout);
        code = argc < 2 ? 2 : 0;
    } else if (!strcmp(argv[1], "ensemble")) {
        code = cmd_ensemble(argc - 1, argv + 1, MPI_COMM_WORLD);
    } else if (!strcmp(argv[1], "uff")) {
        code = cmd_uff_screen(argc - 1, argv + 1, MPI_COMM_WORLD);
    } else if (rank == 0) {
        fprintf(stderr, "vkmd-mpi: unknown command '%s' (see vkmd-mpi --help)\n", argv[1]);
    }
    MPI_Finalize();
    return code;
}
