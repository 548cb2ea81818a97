#!/bin/bash
# The Python package (python/vkmd over libvkmd) under pytest: every call, the
# bad-input cases, energies and forces equal to `vkmd energy` and `vkmd uff
# energy`, a 1,000-replica UFF batch; then every ```python block of
# docs/PYTHON.md and README.md runs as written. Uses the build tree's package
# (build/python, which finds this build's libvkmd). In an ASan build the
# library needs the sanitizer runtimes first in /usr/bin/python3: they are
# preloaded, with leak detection off (the interpreter's own allocations).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 generated data dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args python "$@"
build=$(cd "$(dirname "$vkmd")" && pwd)
root=$(cd "$src/.." && pwd)
export PYTHONPATH=$build/python VKMD_BIN=$vkmd VKMD_SRC=$root
[ -f "$build/python/vkmd/_libpath.py" ] || { err "no $build/python/vkmd (the vkmd_python target)"; cli_finish test_python; }
lib=$(sed -n 's/^LIBRARY_PATHS = \["\(.*\)"\]$/\1/p' "$build/python/vkmd/_libpath.py")
if ldd "$lib" 2>/dev/null | grep -q libasan; then
  pre=$(ldd "$lib" | awk '/libasan/ {print $3; exit}')
  ubsan=$(ldd "$lib" | awk '/libubsan/ {print $3; exit}')
  # last, so it wins over build.sh's detect_leaks=1
  export LD_PRELOAD="$pre${ubsan:+:$ubsan}" ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  echo "ASan library: preloading $LD_PRELOAD"
fi
if ! $py -c 'import pytest, numpy' 2>/dev/null; then
  err "/usr/bin/python3 lacks pytest or numpy (Debian python3-pytest, python3-numpy)"
  cli_finish test_python
fi
cd "$scratch" || exit 1
if $py -m pytest -q -p no:cacheprovider "$root/python/tests"; then ok "pytest python/tests"; else bad "pytest python/tests"; fi
# The docs' examples, as written, in the scratch directory (they write files there), which
# sees the repository's tests/ (they name tests/data files).
ln -sfn "$root/tests" "$scratch/tests"
$py - "$root/docs/PYTHON.md" "$root/README.md" >"$scratch/blocks.list" <<'PY'
import re, sys, os
n = 0
for doc in sys.argv[1:]:
    for k, block in enumerate(re.findall(r"```python\n(.*?)```", open(doc).read(), re.S)):
        out = f"{os.path.basename(doc)}.{k + 1}.py"
        open(out, "w").write(block)
        print(out)
        n += 1
PY
[ -s "$scratch/blocks.list" ] || err "no python blocks found in docs/PYTHON.md and README.md"
while read -r f; do
  if $py "$scratch/$f" >"$scratch/$f.out" 2>&1; then ok "example $f"; else bad "example $f: $(tail -3 "$scratch/$f.out")"; fi
done <"$scratch/blocks.list"
# Installed: the package beside the installed library finds it relative to itself.
if cmake --install "$build" --prefix "$scratch/prefix" >"$scratch/install.log" 2>&1; then
  got=$(cd "$scratch" && PYTHONPATH="$scratch/prefix/lib/python3/dist-packages" $py -c \
    'import vkmd, os; print(os.path.realpath(vkmd.library_path)); print(len(vkmd.devices()))' 2>&1)
  case "$got" in
    "$scratch"/prefix/*) ok "installed package loads the installed library" ;;
    *) bad "installed package: $got" ;;
  esac
else
  bad "cmake --install: $(tail -3 "$scratch/install.log")"
fi
cli_finish test_python
