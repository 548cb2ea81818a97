#!/usr/bin/env bash
# `vkmd run` end to end on water:216 (headless): the outputs (energy.csv with
# units, traj.dcd, final.pdb, the --json summary: mean T and its sd, density,
# no drift for Langevin), the DCD read by MDTraj
# (frames, atoms, box), two Langevin runs with the same seed giving the same
# energy.csv (every column but the measured ns_per_day), and bad input (clear
# message, non-zero exit).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_run "$@"
steps=200
[ "${VKMD_TEST_QUICK:-0}" = 1 ] && steps=40

# 1. A short Langevin run with every output.
run() { # out_dir extra-args...
  local out=$1
  shift
  "$vkmd" run water:216 --no-window --minimize --steps $steps --report-every 20 --traj-every 40 \
    --seed 7 --out "$out" --json "$@" >"$out.json" 2>"$out.err"
}
if run "$scratch/a"; then ok "vkmd run water:216 exits 0"; else bad "vkmd run: $(cat "$scratch/a.err")"; fi
if $py - "$scratch/a" "$scratch/a.json" $steps <<'PY'; then ok "energy.csv, final.pdb and the JSON summary"; else bad "outputs"; fi
import json, math, sys
out, js, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(out + "/energy.csv").read().splitlines()
assert lines[0].startswith("#"), lines[0]
hdr = [l for l in lines if not l.startswith("#")][0].split(",")
assert hdr == ["step", "time_ps", "potential_kcal_mol", "kinetic_kcal_mol", "total_kcal_mol",
               "temperature_K", "ns_per_day", "volume_A3", "density_g_cm3", "box_x_A", "box_y_A",
               "box_z_A"], hdr
rows = [l.split(",") for l in lines if l and not l.startswith("#")][1:]
assert len(rows) == steps // 20 + 1, len(rows)
for r in rows:
    v = [float(x) for x in r]
    assert all(math.isfinite(x) for x in v), r
    assert abs(v[2] + v[3] - v[4]) < 1e-3, r
assert int(rows[-1][0]) == steps
d = json.load(open(js))
for k in ("atoms", "steps", "wall_s", "ns_per_day", "mean_temperature_K", "sd_temperature_K",
          "mean_density_g_cm3"):
    assert k in d, k
assert "energy_drift_kcal_mol_per_ns" not in d, d  # Langevin: no drift (NVE runs report it)
assert d["atoms"] == 648 and d["steps"] == steps, d
assert 100 < d["mean_temperature_K"] < 400, d  # minimised start: heating towards 300 K
pdb = [l for l in open(out + "/final.pdb") if l.startswith(("ATOM", "HETATM"))]
assert len(pdb) == 648, len(pdb)
PY

# 2. The trajectory in MDTraj: frames, atoms, box (nm), whole waters.
if $py - "$scratch/a" $steps <<'PY'; then ok "traj.dcd loads in MDTraj (frames, atoms, box, whole molecules)"; else bad "traj.dcd in MDTraj"; fi
import sys
import numpy as np
import mdtraj
out, steps = sys.argv[1], int(sys.argv[2])
t = mdtraj.load_dcd(out + "/traj.dcd", top=out + "/final.pdb")
assert t.n_frames == steps // 40, t.n_frames
assert t.n_atoms == 648, t.n_atoms
box = t.unitcell_lengths
assert box is not None and np.allclose(box, box[0]) and abs(box[0][0] - 1.862) < 0.01, box[0]
x = t.xyz * 10.0
oh = np.linalg.norm(x[:, 1::3] - x[:, 0::3], axis=2)
assert abs(oh - 0.9572).max() < 1e-3, abs(oh - 0.9572).max()
print("frames", t.n_frames, "atoms", t.n_atoms, "box nm", box[0], "max |OH - 0.9572| A",
      abs(oh - 0.9572).max())
PY

# 3. Same seed, same device: the same energy.csv (ns_per_day is a measured
# rate, the one column that differs).
run "$scratch/b" >/dev/null 2>&1
strip() { grep -v '^#' "$1" | cut -d, -f1-6; }
if [ -s "$scratch/b/energy.csv" ] && diff <(strip "$scratch/a/energy.csv") <(strip "$scratch/b/energy.csv") >/dev/null; then
  ok "two runs with --seed 7: identical energy.csv columns step..temperature_K"
else
  bad "two runs with the same seed differ"
fi

# 4. Hydrogen mass repartitioning makes 4 fs steps work: villin in vacuum with
# H-bond constraints, hydrogens at 3.024 amu, Langevin 300 K.
if "$vkmd" run "$src/data/villin_vac.prmtop" --hmr 3.024 --dt 4 --minimize --steps $steps \
  --report-every 20 --traj-every 0 --out "$scratch/hmr" --json >"$scratch/hmr.json" 2>"$scratch/hmr.err" &&
  $py -c 'import json,sys; d=json.load(open(sys.argv[1])); print("  HMR 4 fs: mean T %.1f +- %.1f K" % (d["mean_temperature_K"], d["sd_temperature_K"])); assert 100 < d["mean_temperature_K"] < 400, d' "$scratch/hmr.json"; then
  ok "--hmr 3.024 --dt 4: stable (finite, temperature heading to 300 K from the minimised start)"
else
  bad "--hmr 4 fs run: $(tail -3 "$scratch/hmr.err")"
fi

# 5. Bad input: clear message, non-zero exit.
expect_fail() { # description pattern args...
  local what=$1 pat=$2
  shift 2
  "$vkmd" run "$@" --out "$scratch/bad" >"$scratch/bad.out" 2>"$scratch/bad.err"
  local rc=$?
  if [ $rc != 0 ] && grep -q -- "$pat" "$scratch/bad.err"; then ok "$what: exit $rc, '$(head -c 160 "$scratch/bad.err")'"; else bad "$what: exit $rc, stderr: $(cat "$scratch/bad.err")"; fi
}
expect_fail "--dt 0" "--dt" water:216 --dt 0
expect_fail "--integrator bogus" "integrator" water:216 --integrator bogus
expect_fail "missing prmtop" "no_such.prmtop" "$scratch/no_such.prmtop"
expect_fail "--rigid-water maybe" "rigid-water" water:216 --rigid-water maybe
expect_fail "--hmr 5 (heavy atom too light)" "mass" "$src/data/villin_vac.prmtop" --hmr 5

cli_finish test_cli_run
