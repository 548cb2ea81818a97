#!/usr/bin/env bash
# vkmd's front door (see README.md):
#   ./build.sh run    install what is missing, build, and run the default job
#   ./build.sh test   install what is missing, build, and run the test suite but for the
#                     long statistics tests (label `statistics`, tests/CMakeLists.txt)
#   ./build.sh test --statistics   the same set-up, then those statistics tests alone
#                     (CI runs both; .ci/run)
#   ./build.sh fuzz [SECONDS]   build the fuzz harnesses (fuzz/, clang's libFuzzer with
#                     ASan+UBSan) in build-fuzz/ and run each for SECONDS (default 30);
#                     any crash, leak, hang or UB fails it (docs/RELIABILITY.md)
# Options (after the verb): --sanitize (ASan+UBSan build in build-asan/),
# --statistics (test: the statistics tests instead of the rest), --werror
# (warnings are errors; CI sets it), --no-install (skip apt-get).
set -euo pipefail
cd "$(dirname "$0")"

verb=${1:-run}
shift || true
fuzz_seconds=30
if [ "$verb" = fuzz ] && [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  fuzz_seconds=$1
  shift
fi
sanitize=0 werror=0 install=1 statistics=0
for a in "$@"; do
  case "$a" in
    --sanitize) sanitize=1 ;;
    --statistics) statistics=1 ;;
    --werror) werror=1 ;;
    --no-install) install=0 ;;
    *) echo "build.sh: unknown option '$a'" >&2; exit 2 ;;
  esac
done
if [ "$statistics" = 1 ] && { [ "$verb" != test ] || [ "$sanitize" = 1 ]; }; then
  echo "build.sh: --statistics goes with 'test' in the normal build (the sanitizer build" \
    "leaves the statistics tests out)" >&2
  exit 2
fi

# Debian packages the build, the tests and the tools need. Nothing else is downloaded.
# Vulkan: loader + headers, glslangValidator, lavapipe (a CPU device, so the GPU tests
# run anywhere), validation layers. FFTW: the reference PME. OpenMM + ParmEd: the
# external check of the reference. clang-format: the format test. VkFFT + glslang
# (library): the GPU PME pass's FFTs. RDKit: the UFF comparison data
# (tests/oracles/uff_rdkit_reference.py). MDTraj: reads vkmd's DCD trajectories in
# tests/test_io_dcd_mdtraj and the Python tests. numpy: the Python package (python/vkmd);
# pytest: its tests. GLFW, cglm, libpng: the viewer. Xvfb (+ xauth for xvfb-run): the
# viewer test's display. Open MPI: the MPI driver vkmd-mpi (ensembles, replica exchange;
# tools/ensemble/) and its tests (tests/test_mpi_*.sh); the rest builds without it.
# clang: the fuzz harnesses (libFuzzer). libnetcdf: AMBER NetCDF trajectories and restarts.
packages=(build-essential cmake pkgconf git libvulkan-dev glslang-tools mesa-vulkan-drivers
  vulkan-validationlayers libfftw3-dev python3 python3-simtk libopenmm-plugins python3-parmed
  clang-format libvkfft-dev glslang-dev python3-rdkit python3-mdtraj python3-numpy python3-pytest
  libglfw3-dev libcglm-dev libpng-dev xvfb xauth openmpi-bin libopenmpi-dev clang
  libnetcdf-dev)

if [ "$install" = 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "build.sh: installing Debian packages: ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -q
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q "${missing[@]}"
  fi
fi

if [ "$verb" = fuzz ]; then
  # The harnesses build on their own (fuzz/CMakeLists.txt: the readers' modules
  # only, with clang), then run with a fixed seed, one per core at a time (fuzz/run.sh).
  cmake -S fuzz -B build-fuzz -DCMAKE_C_COMPILER=clang >/dev/null
  cmake --build build-fuzz -j "$(nproc)"
  bash fuzz/seed_corpus.sh build-fuzz
  exec bash fuzz/run.sh build-fuzz "$fuzz_seconds"
fi

build=build
cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [ "$sanitize" = 1 ]; then
  build=build-asan
  cmake_args+=(-DVKMD_SANITIZE=ON)
fi
[ "$werror" = 1 ] && cmake_args+=(-DVKMD_WERROR=ON)

cmake -S . -B "$build" "${cmake_args[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)"

# `import vkmd` for /usr/bin/python3 with no PYTHONPATH: a .pth file in the user's site-packages
# names this build's package (build/python, docs/PYTHON.md). `cmake --install` installs it instead.
if [ "$sanitize" = 0 ] && [ -x /usr/bin/python3 ]; then
  user_site=$(/usr/bin/python3 -m site --user-site)
  mkdir -p "$user_site" && echo "$PWD/$build/python" >"$user_site/vkmd_build.pth"
fi

case "$verb" in
  run)
    # 216 TIP3P waters, the built-in tile equilibrated at 300 K (no minimisation: it would
    # take the tile's thermal energy away), 10,000 Langevin steps (20 ps), drawn live in a
    # window when there is a display (headless with a progress bar otherwise). The summary's
    # mean temperature is over the reports after the first ps, once the bath holds.
    # --overwrite: the front door repeats; the last run's files move aside to NAME.1, NAME.2 ...
    exec "./$build/vkmd" run water:216 --steps 10000 --report-every 100 --out vkmd_run --overwrite
    ;;
  test)
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    # Only the Vulkan driver's and layer's own never-freed statics are suppressed.
    export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
    # The sanitizer build checks memory and UB, not figures: it leaves out the
    # tests labelled `variant` (the same host code over other shaders),
    # `statistics` (long MD statistics: the same host code step after step)
    # and `sanitize_skip` (host lines the others already run, chosen by
    # coverage: tests/sanitize_skip.txt), which the normal build runs with
    # every assertion (tests/CMakeLists.txt), and runs the tests that honour
    # VKMD_TEST_QUICK shorter.
    # The normal build runs the suite in two parts: the tests labelled
    # `statistics` (long runs whose assertions hold over many samples: 11 MD
    # runs of thousands of steps and 100 kills of test_fault_kill_100, about
    # half the suite's CPU time on a CPU device) with --statistics, every
    # other test without it, so that the everyday command stays short. Their
    # host code runs in the shorter MD, restart and CLI tests too. CI runs
    # both parts, each test with every assertion (.ci/run).
    ctest_select=(-LE '^statistics$')
    [ "$statistics" = 1 ] && ctest_select=(-L '^statistics$')
    if [ "$sanitize" = 1 ]; then
      export VKMD_TEST_QUICK=1
      ctest_select=(-LE 'variant|statistics|sanitize_skip')
    fi
    # lavapipe (the CPU device) runs each dispatch on LP_NUM_THREADS threads,
    # one per core by default; with ctest running one test per core that
    # oversubscribes the cores at every dispatch's fork-join. One thread per
    # test measured 2.75x faster for the whole suite on 2 cores (20 min 9 s
    # -> 7 min 19 s). GPUs ignore it.
    export LP_NUM_THREADS=${LP_NUM_THREADS:-1}
    # The tests' own cache of compiled kernels (core/disk_cache.h), not the
    # user's: one per build tree, filled by the first test that needs an entry.
    export VKMD_CACHE_DIR=${VKMD_CACHE_DIR:-$PWD/$build/cache}
    ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "${ctest_select[@]}"
    ;;
  build) ;;
  *) echo "build.sh: unknown verb '$verb' (run | test | build | fuzz)" >&2; exit 2 ;;
esac
