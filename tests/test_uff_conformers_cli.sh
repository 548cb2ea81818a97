#!/usr/bin/env bash
# The conformer workflow end to end: `vkmd uff relax confs.sdf --out out.sdf`
# on an RDKit ETKDG multi-conformer SDF mixing two molecules
# (tests/data/uff/etkdg_conformers.sdf, tests/oracles/uff_conformers_rdkit.py):
#   - every record is relaxed (quasi-Newton, the default) and written back,
#     sorted by energy within each molecule, with the energies in SD fields;
#   - RDKit reads the output: same molecules (atoms, bonds), its UFF energy
#     of each record is the UFF_ENERGY_KCAL_PER_MOL field within 1e-3
#     kcal/mol (4-decimal coordinates), the relative energies start at 0 and
#     rise, and RDKit's own minimiser from each written structure lowers the
#     energy by less than 1e-3 kcal/mol (they are minima);
#   - --prune-rms 0.1 drops the duplicates (several ETKDG starts reach the
#     same minimum) and keeps one structure per distinct minimum;
#   - the CPU reference (--device cpu) writes the same minima.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args uff_conformers_cli "$@"
confs="$src/data/uff/etkdg_conformers.sdf"

if "$vkmd" uff energy formic-acid --device 0 >/dev/null 2>"$scratch/dev.err"; then
  dev="--device 0"
else
  cli_no_device "$(cat "$scratch/dev.err")"
  dev="--device cpu"
fi

# shellcheck disable=SC2086
"$vkmd" uff relax "$confs" $dev --out "$scratch/out.sdf" --json >"$scratch/out.json" \
  && ok "relax of 12 ETKDG conformers ($dev)" || bad "relax of the conformers failed"
"$vkmd" uff relax "$confs" --device cpu --out "$scratch/cpu.sdf" --json >"$scratch/cpu.json" \
  && ok "relax on the CPU reference" || bad "relax on the CPU failed"
# shellcheck disable=SC2086
"$vkmd" uff relax "$confs" $dev --prune-rms 0.1 --out "$scratch/pruned.sdf" --json >"$scratch/pruned.json" \
  && ok "relax --prune-rms 0.1" || bad "relax --prune-rms failed"

$py - "$confs" "$scratch/out.sdf" "$scratch/out.json" "$scratch/pruned.sdf" "$scratch/cpu.json" <<'PY' && ok "RDKit reads the output back: sorted minima, energies as written, pruning" || bad "round trip"
import json, sys
from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem  # noqa: F401
from rdkit.Chem import rdForceFieldHelpers as uff
RDLogger.DisableLog("rdApp.*")
src, out, js, pruned, cpu = sys.argv[1:]
ins = [m for m in Chem.SDMolSupplier(src, removeHs=False)]
outs = [m for m in Chem.SDMolSupplier(out, removeHs=False)]
d = json.load(open(js))
ok = True
def key(m):
    return Chem.MolToSmiles(Chem.RemoveHs(m))
assert len(outs) == len(ins) == 12 and d["n_converged"] == 12 and d["n_molecules"] == 2
assert sorted(key(m) for m in ins) == sorted(key(m) for m in outs)
worst_e = worst_min = 0.0
last = {}
for m in outs:
    e_field = float(m.GetProp("UFF_ENERGY_KCAL_PER_MOL"))
    rel = float(m.GetProp("UFF_RELATIVE_ENERGY_KCAL_PER_MOL"))
    ff = uff.UFFGetMoleculeForceField(m)
    e = ff.CalcEnergy()
    ff.Minimize(maxIts=2000, forceTol=1e-6)
    worst_e = max(worst_e, abs(e - e_field))
    worst_min = max(worst_min, e - ff.CalcEnergy())
    k = key(m)
    if k in last:
        ok &= rel >= last[k][1] and e_field >= last[k][0]
    else:
        ok &= rel == 0.0
    last[k] = (e_field, rel)
    assert m.GetProp("MINIMIZER") == "L-BFGS" and m.GetProp("CONVERGED") == "1"
print("    12 records: worst |E_rdkit - field| %.1e, worst RDKit further descent %.1e kcal/mol"
      % (worst_e, worst_min))
ok &= worst_e < 1e-3 and worst_min < 1e-3
p = [m for m in Chem.SDMolSupplier(pruned, removeHs=False)]
distinct = {}
for m in outs:
    distinct.setdefault(key(m), set()).add(round(float(m.GetProp("UFF_ENERGY_KCAL_PER_MOL")), 3))
n_distinct = sum(len(v) for v in distinct.values())
print("    --prune-rms 0.1 kept %d of 12; %d distinct minimum energies" % (len(p), n_distinct))
ok &= n_distinct <= len(p) < 12
c = json.load(open(cpu))["replicas"]
worst_c = max(abs(a["energy_final_kcal_per_mol"] - b["energy_final_kcal_per_mol"])
              for a, b in zip(c, d["replicas"]))
print("    CPU reference vs %s: worst |dE| %.1e kcal/mol" % (d["device"], worst_c))
ok &= worst_c < 1e-3
sys.exit(0 if ok else 1)
PY

for args in "$confs --out x.sdf --replicas 2" "$confs --out x.sdf --minimizer bfgs" \
  "$confs --out x.sdf --rms" "$confs --out x.sdf --prune-rms -1"; do
  # shellcheck disable=SC2086
  "$vkmd" uff relax $args >/dev/null 2>"$scratch/usage.err"
  rc=$?
  if [ $rc != 0 ] && [ -s "$scratch/usage.err" ]; then
    ok "relax ${args#"$confs" }: exit $rc, $(head -c 120 "$scratch/usage.err")"
  else
    bad "relax $args: rc $rc"
  fi
done

cli_finish test_uff_conformers_cli
