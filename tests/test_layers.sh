#!/usr/bin/env bash
# The engine's layers hold at compile time (engine/CMakeLists.txt): each
# module compiles against build/layers/<module>/, which links only the modules
# it may use. For every module, with that module's own compile flags:
#   1. a probe including a header of every module the layer forbids fails to
#      compile ("No such file"), and one including a header of every module
#      it allows (itself too) compiles;
#   2. a copy of one of the module's real sources compiles, and fails once a
#      forbidden module's header is included, or once it calls a forbidden
#      module's function without the header (implicit declarations are
#      errors);
#   3. no module below api includes the public headers (core/result.h takes
#      only their result codes).
# Modules without headers yet are listed and skipped; a missing layer
# directory or unreadable module list fails.
# Arguments: $1 vkmd binary (unused), $2 tests source dir, $3 build testdata
# dir (the build tree is its parent).
. "$(dirname "$0")/cli_lib.sh" && cli_args layers "$@"
root=$(cd "$src/.." && pwd)
build=$(cd "$gen/.." && pwd)
cm=$root/engine/CMakeLists.txt
cc=${CC:-cc}

read -r -a modules < <(sed -n 's/^set(vkmd_modules \(.*\))$/\1/p' "$cm")
if [ ${#modules[@]} -lt 2 ]; then
  echo "FAIL: no 'set(vkmd_modules ...)' line in $cm"
  exit 1
fi
echo "modules: ${modules[*]}"

# A module's compile flags: CMake's own (Makefile generators), else the same
# set by hand.
module_flags() {
  local m=$1 f=$build/engine/CMakeFiles/vkmd_$1.dir/flags.make
  if [ -f "$f" ]; then
    local defs incs cf
    defs=$(sed -n 's/^C_DEFINES = //p' "$f")
    incs=$(sed -n 's/^C_INCLUDES = //p' "$f")
    cf=$(sed -n 's/^C_FLAGS = //p' "$f")
    eval "flags=($defs $incs $cf)"
  else
    flags=(-std=c11 -D_GNU_SOURCE -DVKMD_BUILDING_LIBRARY -I"$build/layers/$m" -I"$root/shaders"
      -I"$root/include" -isystem "$build/generated/vkfft" -Wall -Werror
      -Werror=implicit-function-declaration)
  fi
}

# A module's header for the probes: <module>/<module>.h if it has one, else
# its first (sorted); "" if none.
first_header() {
  if [ -f "$root/engine/$1/$1.h" ]; then
    echo "$1/$1.h"
  else
    (cd "$root/engine" && ls "$1"/*.h 2>/dev/null | sort | head -1)
  fi
}

# First function a header declares (vkmd_..., at the start of a line or
# after the return type).
first_function() {
  grep -oE '^[a-z_ ]*[ *]vkmd_[a-z0-9_]+\(' "$root/engine/$1" | grep -oE 'vkmd_[a-z0-9_]+\($' |
    tr -d '(' | head -1
}

for m in "${modules[@]}"; do
  allowed=" $m $(sed -n "s/^set(vkmd_layer_$m\(.*\))$/\1/p" "$cm") "
  if [ ! -d "$root/engine/$m" ]; then
    echo "  (module $m has no directory yet: skipped)"
    continue
  fi
  if [ ! -d "$build/layers/$m" ]; then
    bad "$m: no layer directory $build/layers/$m"
    continue
  fi
  module_flags "$m"
  forbidden_hdr="" after=0
  for o in "${modules[@]}"; do
    [ "$o" = "$m" ] && after=1
    h=$(first_header "$o")
    [ -n "$h" ] || continue
    printf '#include "%s"\n' "$h" >"$scratch/probe_${m}_$o.c"
    if "$cc" "${flags[@]}" -fsyntax-only "$scratch/probe_${m}_$o.c" >"$scratch/probe_${m}_$o.log" 2>&1; then
      rc=0
    else
      rc=1
    fi
    if [[ "$allowed" == *" $o "* ]]; then
      [ $rc = 0 ] && ok "$m may include $h" || bad "$m cannot include allowed $h: $(head -3 "$scratch/probe_${m}_$o.log")"
    else
      if [ $rc = 1 ] && grep -q "No such file" "$scratch/probe_${m}_$o.log"; then
        ok "$m including $h fails: $(grep -m1 -o "$h.*No such file.*" "$scratch/probe_${m}_$o.log")"
      else
        bad "$m including forbidden $h: $([ $rc = 0 ] && echo compiles || head -3 "$scratch/probe_${m}_$o.log")"
      fi
      # For the real source: the first forbidden module above this one,
      # else the first forbidden one.
      if [ -z "$forbidden_hdr" ] || { [ $after = 1 ] && [ -z "${above:-}" ]; }; then
        forbidden_hdr=$h
        [ $after = 1 ] && above=1
      fi
    fi
  done
  unset above

  # 2. A real source of the module, as is and with one forbidden include or call.
  src=$(cd "$root/engine" && ls "$m"/*.c 2>/dev/null | sort | head -1)
  if [ -z "$src" ]; then
    echo "  ($m has no sources yet: real-source checks skipped)"
    continue
  fi
  if [ -z "$forbidden_hdr" ]; then
    echo "  ($m: no module is forbidden to it)"
    continue
  fi
  base=$scratch/real_$m
  cp "$root/engine/$src" "$base.c"
  if "$cc" "${flags[@]}" -fsyntax-only "$base.c" >"$base.log" 2>&1; then
    ok "$m: a copy of $src compiles with $m's flags"
  else
    bad "$m: a copy of $src does not compile as is: $(head -3 "$base.log")"
    continue
  fi
  { printf '#include "%s"\n' "$forbidden_hdr"; cat "$root/engine/$src"; } >"${base}_include.c"
  if "$cc" "${flags[@]}" -fsyntax-only "${base}_include.c" >"${base}_include.log" 2>&1; then
    bad "$m: $src with #include \"$forbidden_hdr\" compiles"
  elif grep -q "No such file" "${base}_include.log"; then
    ok "$m: $src with #include \"$forbidden_hdr\" fails"
  else
    bad "$m: $src with #include \"$forbidden_hdr\" fails for another reason: $(head -3 "${base}_include.log")"
  fi
  fn=$(first_function "$forbidden_hdr")
  if [ -z "$fn" ]; then
    bad "$m: no function found in $forbidden_hdr for the call check"
    continue
  fi
  { cat "$root/engine/$src"; printf '\nvoid vkmd_layers_probe(void);\nvoid vkmd_layers_probe(void)\n{\n    %s();\n}\n' "$fn"; } >"${base}_call.c"
  if "$cc" "${flags[@]}" -fsyntax-only "${base}_call.c" >"${base}_call.log" 2>&1; then
    bad "$m: $src calling $fn (of $forbidden_hdr) without its header compiles"
  elif grep -q "implicit declaration" "${base}_call.log"; then
    ok "$m: $src calling $fn without its header fails (implicit declaration)"
  else
    bad "$m: $src calling $fn fails for another reason: $(head -3 "${base}_call.log")"
  fi
done

# The cases the layers exist for, named (when both modules exist).
for pair in forces:sim/md.h io:forces/forcefield.h ref:forces/forcefield.h ref:sim/md.h run:ref/ \
  api:eval/ sim:run/ maths:vk/context.h system:io/load.h; do
  m=${pair%%:*} h=${pair#*:}
  [ "${h%/}" != "$h" ] && h=$(first_header "${h%/}") # "module/": any header of it
  if [ ! -d "$build/layers/$m" ] || [ -z "$h" ] || [ ! -f "$root/engine/$h" ]; then
    echo "  ($pair: not in this tree yet)"
    continue
  fi
  module_flags "$m"
  printf '#include "%s"\n' "$h" >"$scratch/named_$m.c"
  if "$cc" "${flags[@]}" -fsyntax-only "$scratch/named_$m.c" >"$scratch/named_$m.log" 2>&1; then
    bad "$m including $h compiles"
  elif grep -q "No such file" "$scratch/named_$m.log"; then
    ok "$m including $h fails"
  else
    bad "$m including $h fails for another reason: $(head -3 "$scratch/named_$m.log")"
  fi
done

# The public headers sit on every module's include path (core/result.h takes
# the result codes from vkmd.h's first part); the API itself is for api/ only.
leaks=$(cd "$root/engine" && grep -lE '^#include [<"]vkmd(_vulkan)?\.h[>"]' */*.[ch] |
  grep -vE '^(api/|core/result\.h$)' | tr '\n' ' ')
[ -z "$leaks" ] && ok "only api/ (and core/result.h) include the public headers" ||
  bad "below api, including the public headers: $leaks"

cli_finish test_layers
