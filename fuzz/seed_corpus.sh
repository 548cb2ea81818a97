#!/usr/bin/env bash
# Assembles each harness's seed corpus in BUILD/corpus/<harness>/ from
# tests/data and tests/broken (and seed_writer's DCD, checkpoint, XSF and
# NetCDF files): usage fuzz/seed_corpus.sh BUILD (the fuzz build directory).
# Nothing here is committed: the corpora are rebuilt from the test inputs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
corpus=$build/corpus
rm -rf "$corpus"
for h in prmtop coords pdb sdf xyz dcd checkpoint xsf atom_list spec args netcdf; do
  mkdir -p "$corpus/$h"
done
copy() { # harness, then files
  local h=$1; shift
  for f in "$@"; do
    [ -f "$f" ] && cp "$f" "$corpus/$h/$(basename "$(dirname "$f")")_$(basename "$f")"
  done
  return 0
}
# Large inputs (villin's 378 kB prmtop) slow every mutation; libFuzzer's
# -max_len keeps the mutated size bounded anyway, so only files up to 64 kB seed.
small() { find "$@" -maxdepth 1 -type f -size -64k 2>/dev/null; }
copy prmtop $(small "$root/tests/data" "$root/tests/broken" | grep '\.prmtop$')
copy coords $(small "$root/tests/data" "$root/tests/broken" | grep -E '\.(inpcrd|rst7)$')
copy netcdf "$root/tests/broken/netcdf.rst7"
copy pdb $(small "$root/tests/data" "$root/tests/broken" "$root/assets" | grep '\.pdb$')
copy sdf $(small "$root/tests/data/uff" "$root/tests/broken/uff" "$root/assets/molecules" | grep -E '\.(sdf|mol)$')
copy xyz $(small "$root/tests/data/uff" "$root/tests/broken/uff" | grep '\.xyz$')
# Extended XYZ: a lattice and a properties column spec in the comment line.
printf '3\nLattice="10 0 0 0 10 0 0 0 10" Properties=species:S:1:pos:R:3 pbc="T T T"\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n' \
  >"$corpus/xyz/extended.xyz"
printf '3\nwater\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n' >"$corpus/xyz/plain.xyz"
printf '1\n3-5\n# comment\n10 - 12\n1000\n' >"$corpus/atom_list/list.txt"
i=0
for s in water:1 water:27 water:8:lattice water:0 water:100000000 formic-acid xylitol water:12x; do
  printf '%s' "$s" >"$corpus/spec/$i"
  i=$((i + 1))
done
i=0
for s in 2 0.5 1e-3 1e15 -1 32x32x32 48 fp16:9.5 fp16-powers fp32 nan inf 0x10 \
  "--dt\x002\x00--steps\x001000\x00--integrator\x00verlet\x00--flag\x00--int\x00-3"; do
  printf -- "$s" >"$corpus/args/$i"
  i=$((i + 1))
done
"$build/seed_writer" "$corpus"
for h in "$corpus"/*; do
  echo "seed_corpus.sh: $(basename "$h"): $(ls "$h" | wc -l) inputs"
done
