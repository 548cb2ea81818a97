# What the MPI tests (tests/test_mpi_*.sh) share, sourced after cli_lib.sh:
# the MPI driver vkmd-mpi (built beside vkmd when CMake found MPI,
# tools/ensemble/) and an mpirun command line for a busy machine. Without
# vkmd-mpi or mpirun a test skips (exit 77), or fails when VKMD_REQUIRE_MPI is
# set and not 0 (.ci/run sets it: build.sh installs Open MPI).
# Sets: vkmd_mpi, mpirun (an array: mpirun --oversubscribe [--allow-run-as-root]).
mpi_setup() { # name
  vkmd_mpi=$(dirname "$vkmd")/vkmd-mpi
  if [ ! -x "$vkmd_mpi" ] || ! command -v mpirun >/dev/null; then
    if [ "${VKMD_REQUIRE_MPI:-0}" != 0 ]; then
      echo "FAIL $1: no vkmd-mpi or mpirun (install openmpi-bin libopenmpi-dev and rebuild)"
      exit 1
    fi
    echo "SKIP $1: vkmd-mpi not built (no MPI found at configure time) or no mpirun"
    exit 77
  fi
  # More ranks than cores on a CI machine; ranks yield when idle
  # (--oversubscribe), and root needs its own flag.
  mpirun=(mpirun --oversubscribe)
  [ "$(id -u)" = 0 ] && mpirun+=(--allow-run-as-root)
  # Open MPI's own allocations are not the engine's: the sanitizer build checks
  # memory errors in these runs, not leaks.
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  # Several ranks each on a one-thread device share the cores.
  export LP_NUM_THREADS=${LP_NUM_THREADS:-1}
  # Shared-memory transport only (one machine): no network probing.
  export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
}
