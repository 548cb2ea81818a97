#!/usr/bin/env bash
# vkmd as an installed library: `cmake --install` into a temporary prefix
# holds libvkmd.so.MAJOR.MINOR.PATCH (+ soname links), the two public headers
# and no other, vkmd.pc and the CMake package; the library exports exactly the
# VKMD_API functions of the headers and reaches nothing in the build tree.
# examples/ (copied out of the source tree) configures and builds against the
# prefix through PKG_CONFIG_PATH alone, the engine's headers out of reach;
# md_water also builds with the one-line cc command and with find_package.
# md_water then runs 100 MD steps of water:216 on the installed library and
# prints 11 finite energy rows; run_water runs 100 steps through the run API
# and its checkpoint continues with `vkmd run --restart`, bit for bit a
# 200-step vkmd run. Anything missing is a failure; only the runs are
# skipped without a Vulkan device (unless VKMD_REQUIRE_DEVICE=1).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 build testdata dir (the
# build tree is its parent).
. "$(dirname "$0")/cli_lib.sh" && cli_args install_example "$@"
root=$(cd "$src/.." && pwd)
build=$(cd "$gen/.." && pwd)
# Outside the build tree, so that no path below names it by accident; kept
# (and named) when a check fails.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/vkmd_install_example.XXXXXX") || exit 1
prefix=$scratch/prefix
finish() {
  echo "$((checks - fail)) passed, $fail failed"
  if [ $fail = 0 ]; then
    rm -rf "$scratch"
    exit 0
  fi
  echo "outputs kept in $scratch"
  exit 1
}
for tool in cmake pkg-config nm readelf cc; do
  command -v $tool >/dev/null || bad "$tool is not installed"
done
[ -f "$build/CMakeCache.txt" ] || bad "$build is not a CMake build tree"
[ $fail = 0 ] || finish

# 1. Install.
if cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1; then
  ok "cmake --install --prefix $prefix"
else
  bad "cmake --install: $(tail -5 "$scratch/install.log")"
  finish
fi
version=$(sed -n 's/^#define VKMD_VERSION_STRING *"\(.*\)"/\1/p' "$root/include/vkmd.h")
major=${version%%.*}
lib=$prefix/lib
[ -d "$lib" ] || lib=$(dirname "$(find "$prefix" -name "libvkmd.so*" | head -1)")
for f in "$lib/libvkmd.so.$version" "$lib/libvkmd.so.$major" "$lib/libvkmd.so" \
  "$prefix/include/vkmd.h" "$prefix/include/vkmd_vulkan.h" "$lib/pkgconfig/vkmd.pc" \
  "$lib/cmake/vkmd/vkmdConfig.cmake" "$lib/cmake/vkmd/vkmdConfigVersion.cmake" \
  "$lib/cmake/vkmd/vkmdTargets.cmake"; do
  [ -e "$f" ] && ok "installed ${f#"$prefix"/}" || bad "not installed: ${f#"$prefix"/}"
done
headers=$(cd "$prefix" && find . -name '*.h' | sort | tr '\n' ' ')
[ "$headers" = "./include/vkmd.h ./include/vkmd_vulkan.h " ] && ok "only the public headers are installed" ||
  bad "installed headers: $headers (expected include/vkmd.h and include/vkmd_vulkan.h)"
soname=$(readelf -d "$lib/libvkmd.so.$version" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libvkmd.so.$major" ] && ok "soname $soname" || bad "soname '$soname', expected libvkmd.so.$major"

# 2. Exports: exactly the VKMD_API functions of the public headers.
declared=$(cat "$prefix/include/vkmd.h" "$prefix/include/vkmd_vulkan.h" | tr '\n' ' ' |
  grep -oE 'VKMD_API [^;(]*\bvkmd_[a-z0-9_]+ *\(' | grep -oE 'vkmd_[a-z0-9_]+ *\($' | tr -d ' (' | sort -u)
exported=$(nm -D --defined-only "$lib/libvkmd.so.$version" | awk '{print $3}' | sort -u)
[ -n "$declared" ] || bad "no VKMD_API declarations found in the installed headers"
extra=$(comm -13 <(echo "$declared") <(echo "$exported") | tr '\n' ' ')
missing=$(comm -23 <(echo "$declared") <(echo "$exported") | tr '\n' ' ')
[ -z "$extra" ] && ok "exports only VKMD_API functions ($(echo "$exported" | wc -l) symbols)" ||
  bad "exported beyond the API: $extra"
[ -z "$missing" ] && ok "every VKMD_API function is exported" || bad "declared, not exported: $missing"
if readelf -d "$lib/libvkmd.so.$version" | grep -E "RPATH|RUNPATH" | grep -qF "$build"; then
  bad "the installed library has a run path into the build tree"
else
  ok "no run path into the build tree"
fi
if grep -qF -e "$build" -e "$root" "$lib/pkgconfig/vkmd.pc" "$lib/cmake/vkmd/"*.cmake; then
  bad "vkmd.pc or the CMake package names the source or build tree"
else
  ok "vkmd.pc and the CMake package name neither the source nor the build tree"
fi

# 3. examples/ out of the source tree, through pkg-config only. A sanitizer
# build's library needs its runtime loaded first: the programs get the same
# -fsanitize flags.
san=()
grep -q '^VKMD_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && san=(-fsanitize=address,undefined)
cp -r "$root/examples" "$scratch/examples"
export PKG_CONFIG_PATH=$lib/pkgconfig
unset CMAKE_PREFIX_PATH CPATH C_INCLUDE_PATH LIBRARY_PATH
cflags=$(pkg-config --cflags vkmd) && libs=$(pkg-config --libs vkmd) &&
  ok "pkg-config vkmd: $cflags $libs" || bad "pkg-config does not find vkmd in $PKG_CONFIG_PATH"
[ "$(pkg-config --modversion vkmd)" = "$version" ] && ok "pkg-config version $version" ||
  bad "pkg-config version '$(pkg-config --modversion vkmd)', expected $version"
printf '#include <vkmd.h>\nint main(void) { return vkmd_result_str(VKMD_OK)[0] == 0; }\n' >"$scratch/probe_ok.c"
cc -std=c11 $cflags -fsyntax-only "$scratch/probe_ok.c" 2>"$scratch/probe_ok.err" &&
  ok "<vkmd.h> compiles with pkg-config's flags" || bad "<vkmd.h> does not compile: $(head -3 "$scratch/probe_ok.err")"
printf '#include <vkmd_vulkan.h>\nint main(void) { return vkmd_context_vk_device(0) != VK_NULL_HANDLE; }\n' >"$scratch/probe_vk.c"
cc -std=c11 $cflags -fsyntax-only "$scratch/probe_vk.c" 2>"$scratch/probe_vk.err" &&
  ok "<vkmd_vulkan.h> compiles with pkg-config's flags" || bad "<vkmd_vulkan.h> does not compile: $(head -3 "$scratch/probe_vk.err")"
if command -v c++ >/dev/null; then
  c++ $cflags -Wall -Werror -fsyntax-only -x c++ "$scratch/probe_vk.c" 2>"$scratch/probe_cxx.err" &&
    ok "the headers compile as C++" || bad "the headers as C++: $(head -3 "$scratch/probe_cxx.err")"
fi
for internal in core/result.h sim/md.h vk/context.h; do
  printf '#include "%s"\nint main(void) { return 0; }\n' "$internal" >"$scratch/probe_internal.c"
  if cc -std=c11 $cflags -fsyntax-only "$scratch/probe_internal.c" 2>/dev/null; then
    bad "engine header $internal reachable with pkg-config's flags"
  else
    ok "engine header $internal out of reach"
  fi
done
if cmake -S "$scratch/examples" -B "$scratch/examples_build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_C_FLAGS="${san[*]}" -DCMAKE_EXE_LINKER_FLAGS="${san[*]}" >"$scratch/configure.log" 2>&1 && cmake --build "$scratch/examples_build" >"$scratch/build.log" 2>&1; then
  ok "examples/ configured and built against the prefix"
else
  bad "examples/ build: $(tail -8 "$scratch/configure.log" "$scratch/build.log" 2>/dev/null)"
fi
if grep -qE -- "-I *($root|$build)" "$scratch/examples_build/compile_commands.json" 2>/dev/null; then
  bad "the example's compile commands reach into the source or build tree"
else
  ok "the example compiles with the prefix's include directory only"
fi
(cd "$scratch/examples" && cc -std=c11 "${san[@]}" md_water.c -o "$scratch/md_water_cc" $cflags $libs) \
  2>"$scratch/cc.err" && ok "one-line cc build" || bad "one-line cc build: $(head -5 "$scratch/cc.err")"
mkdir -p "$scratch/find_package"
cat >"$scratch/find_package/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(vkmd_find LANGUAGES C)
find_package(vkmd $version REQUIRED)
add_executable(md_water $scratch/examples/md_water.c)
target_link_libraries(md_water PRIVATE vkmd::vkmd)
CMAKE
if cmake -S "$scratch/find_package" -B "$scratch/find_package/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="${san[*]}" -DCMAKE_EXE_LINKER_FLAGS="${san[*]}" >"$scratch/fp.log" 2>&1 && cmake --build "$scratch/find_package/build" >>"$scratch/fp.log" 2>&1; then
  ok "find_package(vkmd $version) and vkmd::vkmd build md_water"
else
  bad "find_package(vkmd): $(tail -8 "$scratch/fp.log")"
fi

# 4. Run the example on the installed library.
exe=$scratch/examples_build/md_water
if [ ! -x "$exe" ]; then
  bad "no md_water to run"
  finish
fi
resolved=$(LD_LIBRARY_PATH=$lib ldd "$exe" | awk '/libvkmd/ {print $3}')
[ "$(readlink -f "$resolved")" = "$(readlink -f "$lib/libvkmd.so.$version")" ] &&
  ok "md_water loads the installed libvkmd" || bad "md_water loads '$resolved'"
LD_LIBRARY_PATH=$lib "$exe" >"$scratch/md_water.out" 2>"$scratch/md_water.err"
rc=$?
cat "$scratch/md_water.out"
if [ $rc != 0 ] && grep -qi "no Vulkan" "$scratch/md_water.err" && [ "${VKMD_REQUIRE_DEVICE:-0}" = 0 ]; then
  echo "  skip the run: no Vulkan device"
  finish
fi
[ $rc = 0 ] && ok "md_water exit 0" || bad "md_water exit $rc: $(tail -3 "$scratch/md_water.err")"
/usr/bin/python3 - "$scratch/md_water.out" <<'PY' && ok "11 rows, steps 0..100 by 10, finite energies, T in (0, 1e4) K" || bad "md_water's energy rows"
import math, sys
rows = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 6 and f[0].isdigit():
        rows.append([float(x) for x in f])
ok = [int(r[0]) for r in rows] == list(range(0, 101, 10))
ok = ok and all(math.isfinite(x) for r in rows for x in r)
ok = ok and all(0 < r[5] < 1e4 and abs(r[2] + r[3] - r[4]) < 1e-3 for r in rows)
sys.exit(0 if ok else 1)
PY
grep -q "potential_kcal/mol" "$scratch/md_water.out" && grep -q "done: 100 steps" "$scratch/md_water.out" &&
  ok "units in the header; done" || bad "md_water's header or its last line"

# 5. run_water: 100 steps through the run API on the installed library; its
# checkpoint continues with `vkmd run --restart` to step 200, and the result
# is bit for bit that of one 200-step vkmd run (trajectory, final PDB,
# checkpoint, every energy column but the measured speed).
exe=$scratch/examples_build/run_water
LD_LIBRARY_PATH=$lib "$exe" "$scratch/ex" >"$scratch/run_water.out" 2>"$scratch/run_water.err"
rc=$?
cat "$scratch/run_water.out"
[ $rc = 0 ] && ok "run_water exit 0" || bad "run_water exit $rc: $(tail -3 "$scratch/run_water.err")"
for f in energy.csv traj.dcd final.pdb checkpoint.chk; do
  [ -s "$scratch/ex/$f" ] && ok "run_water wrote $f" || bad "run_water wrote no $f"
done
grep -q "checkpoint at step 100" "$scratch/run_water.out" && ok "checkpoint at step 100 reported" ||
  bad "no checkpoint at step 100 reported"
"$vkmd" run water:216 --no-window --steps 200 --report-every 10 --out "$scratch/ex" \
  --restart "$scratch/ex/checkpoint.chk" >"$scratch/restart.log" 2>&1 &&
  ok "vkmd run --restart continues run_water's checkpoint to step 200" ||
  bad "vkmd run --restart: $(tail -3 "$scratch/restart.log")"
"$vkmd" run water:216 --no-window --steps 200 --report-every 10 --out "$scratch/straight" \
  >"$scratch/straight.log" 2>&1 || bad "straight 200-step run: $(tail -3 "$scratch/straight.log")"
for f in traj.dcd final.pdb checkpoint.chk; do
  cmp -s "$scratch/ex/$f" "$scratch/straight/$f" && ok "$f bitwise that of the uninterrupted vkmd run" ||
    bad "$f differs from the uninterrupted vkmd run's"
done
if diff <(cut -d, -f1-6 "$scratch/ex/energy.csv") <(cut -d, -f1-6 "$scratch/straight/energy.csv") >/dev/null; then
  ok "energy.csv the same but for ns_per_day ($(grep -vc '^#' "$scratch/ex/energy.csv") lines)"
else
  bad "energy.csv differs: $(diff <(cut -d, -f1-6 "$scratch/ex/energy.csv") <(cut -d, -f1-6 "$scratch/straight/energy.csv") | head -4)"
fi
finish
