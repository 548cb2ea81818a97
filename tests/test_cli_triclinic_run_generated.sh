#!/usr/bin/env bash
# `vkmd run` on the device in a truncated octahedron (tri_oct_water from the
# openmm_triclinic_generate fixture: 1,515 TIP3P waters, 40 A edges) with the
# isotropic Monte Carlo barostat, headless: the run finishes, final.pdb's
# CRYST1 keeps the octahedron's angles, energy.csv's volume is the cell's
# (0.7698 a^3), and a run stopped at step 50 and continued with --restart
# writes final.pdb, traj.dcd and energy.csv (but its ns_per_day column) equal
# to the uninterrupted run's byte for byte (the checkpoint holds the cell's
# vectors bit for bit).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_triclinic_run "$@"
top=$gen/tri_oct_water.prmtop crd=$gen/tri_oct_water.inpcrd
[ -s "$top" ] && [ -s "$crd" ] || { echo "FAIL: $top missing (openmm_triclinic_generate fixture)"; exit 1; }
opts=(--coords "$crd" --no-window --report-every 25 --traj-every 25 --checkpoint-every 50 --pressure 1
      --barostat-every 10 --seed 3)

"$vkmd" run "$top" "${opts[@]}" --steps 100 --out "$scratch/a" >"$scratch/a.log" 2>&1 &&
  ok "100 steps with the barostat: $(grep -o '[0-9]* of [0-9]* volume moves accepted' "$scratch/a.log")" ||
  bad "run: $(tail -3 "$scratch/a.log")"
grep -q '^CRYST1.* 109\.47 109\.47 109\.47 ' "$scratch/a/final.pdb" &&
  ok "final.pdb: $(head -1 "$scratch/a/final.pdb")" || bad "final.pdb CRYST1: $(head -1 "$scratch/a/final.pdb")"
if $py - "$scratch/a/energy.csv" <<'PY'; then ok "energy.csv: volume of the octahedron"; else bad "energy.csv volume"; fi
import csv, math, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
c = math.cos(math.radians(109.4712206344907))
for r in rows:
    a = float(r["box_x_A"])
    v = a ** 3 * math.sqrt(1 - 3 * c * c + 2 * c ** 3)
    assert abs(float(r["volume_A3"]) - v) < 1e-3 * v, (r["step"], r["volume_A3"], v)
print("    step %s: edge %s A, volume %s A^3, density %s g/cm^3" % (r["step"], r["box_x_A"], r["volume_A3"], r["density_g_cm3"]))
PY

"$vkmd" run "$top" "${opts[@]}" --steps 50 --out "$scratch/b" >"$scratch/b.log" 2>&1 &&
  "$vkmd" run "$top" "${opts[@]}" --steps 100 --restart "$scratch/b/checkpoint.chk" --out "$scratch/b" \
    >"$scratch/b2.log" 2>&1 || bad "stopped run and restart: $(tail -3 "$scratch/b.log" "$scratch/b2.log")"
for f in final.pdb traj.dcd; do
  cmp -s "$scratch/a/$f" "$scratch/b/$f" && ok "restart: $f byte for byte" || bad "restart: $f differs"
done
strip() { grep -v '^#' "$1" | awk -F, 'NR == 1 {for (i = 1; i <= NF; ++i) if ($i == "ns_per_day") k = i}
  {s = ""; for (i = 1; i <= NF; ++i) if (i != k) s = s $i ","; print s}'; }
[ "$(strip "$scratch/a/energy.csv")" = "$(strip "$scratch/b/energy.csv")" ] &&
  ok "restart: energy.csv equal (ns_per_day aside)" || bad "restart: energy.csv differs"

cli_finish cli_triclinic_run
