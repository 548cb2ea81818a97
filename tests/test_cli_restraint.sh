#!/usr/bin/env bash
# Positional restraints from the command line (docs/RESTRAINTS.md):
#   1. `vkmd energy --restrain MASK --reference FILE` on water_nacl, the
#      reference written from tests/data/restraint_water_nacl.openmm.txt (the
#      OpenMM case: displaced, some by box vectors): the restraint energy of
#      the CPU reference within 1e-6 of OpenMM's, the device's within 1e-5;
#      --restraint-k scales it; --restrain-file with the same atoms agrees;
#   2. a malformed mask and a broken atom list fail with their messages;
#   3. `vkmd run --restrain` writes the restraint column of energy.csv; a
#      restart with another k, another mask or no restraints is refused
#      naming the setting; with the same options it finishes, and its
#      final.pdb and energy.csv equal the uninterrupted run's.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_restraint "$@"
data=$src/data
mask=':1-30@O | :NA,CL'

# 1. The reference coordinates and the atom list of the OpenMM case.
if ! $py - "$data" "$scratch" <<'PY'; then
import sys
data, out = sys.argv[1], sys.argv[2]
lines = [l for l in open(data + '/restraint_water_nacl.openmm.txt') if not l.startswith('#')]
i = next(k for k, l in enumerate(lines) if l.startswith('restraints '))
n = int(lines[i].split()[1])
refs = {int(l.split()[0]): [float(v) for v in l.split()[1:4]] for l in lines[i + 1:i + 1 + n]}
energy = float(next(l for l in lines if l.startswith('energy ')).split()[1])
crd = open(data + '/water_nacl.inpcrd').read().split('\n')
natom = int(crd[1].split()[0])
vals = [float(crd[2 + k // 6][12 * (k % 6):12 * (k % 6) + 12]) for k in range(3 * natom)]
for a, r in refs.items():
    vals[3 * (a - 1):3 * a] = r
with open(out + '/ref.inpcrd', 'w') as f:
    f.write('restraint reference\n%6d\n' % natom)
    for k in range(0, len(vals), 6):
        f.write(''.join('%12.7f' % v for v in vals[k:k + 6]) + '\n')
    f.write(crd[2 + (3 * natom + 5) // 6] + '\n')
with open(out + '/atoms.txt', 'w') as f:
    f.write('# the OpenMM case atoms\n' + '\n'.join(str(a) for a in sorted(refs)) + '\n')
open(out + '/openmm_energy', 'w').write(repr(energy))
PY
  err "could not write the reference"
fi
want=$(cat "$scratch/openmm_energy" 2>/dev/null || echo nan)
restraint_of() { $py -c 'import json,sys; print(json.load(open(sys.argv[1]))["restraint"])' "$1" 2>/dev/null || echo nan; }
close() { $py -c 'import sys; a, b, t = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= t * abs(b) else 1)' "$@"; }

energy() { # out-file args...
  local out=$1
  shift
  "$vkmd" energy "$data/water_nacl.prmtop" --coords "$data/water_nacl.inpcrd" --json "$@" >"$out" 2>"$out.err"
}
if energy "$scratch/cpu.json" --restrain "$mask" --reference "$scratch/ref.inpcrd"; then
  got=$(restraint_of "$scratch/cpu.json")
  close "$got" "$want" 1e-6 && ok "vkmd energy (cpu): restraint $got kcal/mol, OpenMM $want" ||
    bad "vkmd energy (cpu): restraint $got, OpenMM $want"
else bad "vkmd energy --restrain: $(cat "$scratch/cpu.json.err")"; fi
if energy "$scratch/k5.json" --restrain "$mask" --reference "$scratch/ref.inpcrd" --restraint-k 5; then
  got5=$(restraint_of "$scratch/k5.json")
  close "$got5" "$($py -c "print($want / 2)")" 1e-6 && ok "--restraint-k 5 halves it ($got5)" ||
    bad "--restraint-k 5: $got5"
else bad "--restraint-k 5: $(cat "$scratch/k5.json.err")"; fi
if energy "$scratch/file.json" --restrain-file "$scratch/atoms.txt" --reference "$scratch/ref.inpcrd"; then
  gotf=$(restraint_of "$scratch/file.json")
  close "$gotf" "$want" 1e-6 && ok "--restrain-file: the same atoms, the same energy ($gotf)" ||
    bad "--restrain-file: $gotf"
else bad "--restrain-file: $(cat "$scratch/file.json.err")"; fi
energy "$scratch/gpu.json" --restrain "$mask" --reference "$scratch/ref.inpcrd" --device gpu
st=$?
if [ $st = 0 ]; then
  gotg=$(restraint_of "$scratch/gpu.json")
  close "$gotg" "$want" 1e-5 && ok "vkmd energy --device gpu: restraint $gotg kcal/mol" ||
    bad "vkmd energy --device gpu: restraint $gotg, OpenMM $want"
elif grep -qi "no Vulkan" "$scratch/gpu.json.err"; then cli_no_device "vkmd energy --device gpu"
else bad "vkmd energy --device gpu: $(cat "$scratch/gpu.json.err")"; fi

# 2. Errors.
expect_error() { # what expected-text args...
  local what=$1 want=$2
  shift 2
  if energy "$scratch/e.json" "$@"; then bad "$what accepted"
  elif grep -qF -- "$want" "$scratch/e.json.err"; then ok "$what: $(head -1 "$scratch/e.json.err")"
  else bad "$what: unexpected message: $(cat "$scratch/e.json.err")"; fi
}
expect_error "malformed mask" "mask ':1-30@O |': character 10: unexpected end" --restrain ':1-30@O |'
# A mask quoted twice (its own quotes inside the shell's) is shown once.
expect_error "mask quoted twice" "mask \"':1-30'\": character 1: expected ':', '@', '*', '!' or '(' (the mask holds quote characters" \
  --restrain "':1-30'"
printf '1\n2-x\n' >"$scratch/bad_atoms.txt"
expect_error "broken atom list" "$scratch/bad_atoms.txt:2: expected a 1-based atom index" \
  --restrain-file "$scratch/bad_atoms.txt"
expect_error "mask and file together" "not both" --restrain "$mask" --restrain-file "$scratch/atoms.txt"
expect_error "--restraint-k 0" "--restraint-k" --restrain "$mask" --restraint-k 0

# 3. A restrained run, its CSV column and restarts.
opts=(--no-window --steps 200 --report-every 50 --checkpoint-every 100 --seed 5 --precision single)
run() { # dir args...
  local dir=$1
  shift
  "$vkmd" run "$data/water_nacl.prmtop" --coords "$data/water_nacl.inpcrd" "${opts[@]}" --out "$dir" "$@" \
    >"$dir.log" 2>&1
}
if run "$scratch/a" --restrain "$mask" --reference "$scratch/ref.inpcrd" --steps 100; then
  col=$(grep -v '^#' "$scratch/a/energy.csv" | head -1 | cut -d, -f8)
  last=$(grep -v '^#' "$scratch/a/energy.csv" | tail -1 | cut -d, -f8)
  [ "$col" = restraint_kcal_mol ] && close "$last" "$last" 0 && $py -c "import sys; sys.exit(0 if float('$last') > 0 else 1)" &&
    ok "energy.csv: restraint_kcal_mol column, last row $last" || bad "energy.csv restraint column: '$col' '$last'"
  refuse() { # what expected args...
    local what=$1 want=$2
    shift 2
    if run "$scratch/c" --restart "$scratch/a/checkpoint.chk" "$@"; then bad "$what accepted"
    elif grep -q "$want" "$scratch/c.log"; then ok "$what refused: $(grep -m1 "$want" "$scratch/c.log")"
    else bad "$what: unexpected message: $(tail -3 "$scratch/c.log")"; fi
  }
  refuse "restart with another k" "restraint_k" --restrain "$mask" --reference "$scratch/ref.inpcrd" --restraint-k 5
  refuse "restart with another reference" "restraints" --restrain "$mask"
  refuse "restart without restraints" "restraints"
  if run "$scratch/a" --restart "$scratch/a/checkpoint.chk" --restrain "$mask" --reference "$scratch/ref.inpcrd"; then
    ok "restart with the same restraints finishes (step $(grep -v '^#' "$scratch/a/energy.csv" | tail -1 | cut -d, -f1))"
  else bad "restart with the same restraints: $(tail -3 "$scratch/a.log")"; fi
  if run "$scratch/b" --restrain "$mask" --reference "$scratch/ref.inpcrd"; then
    cmp -s "$scratch/a/final.pdb" "$scratch/b/final.pdb" &&
      diff <(cut -d, -f1-6,8- "$scratch/a/energy.csv") <(cut -d, -f1-6,8- "$scratch/b/energy.csv") >/dev/null &&
      ok "restarted run = uninterrupted run (final.pdb, energy.csv but for ns_per_day)" ||
      bad "the restarted restrained run differs from the uninterrupted one"
  else bad "uninterrupted restrained run: $(tail -3 "$scratch/b.log")"; fi
else
  cli_skip_without_device "$scratch/a.log" cli_restraint
  bad "vkmd run --restrain: $(tail -3 "$scratch/a.log")"
fi
cli_finish test_cli_restraint
