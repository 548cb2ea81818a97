#!/usr/bin/env bash
# vkmd run with the Monte Carlo barostat (--pressure), water:216 headless:
#   1. energy.csv has the box columns (volume_A3, density_g_cm3, box_x_A,
#      box_y_A, box_z_A) and the volume changes; final.pdb's CRYST1 is the
#      last row's box;
#   2. a run stopped at a checkpoint and continued with --restart gives
#      traj.dcd, final.pdb and energy.csv (all but ns_per_day) byte for byte
#      those of the uninterrupted run: the box and the barostat's step sizes
#      and counters travel in the checkpoint;
#   3. continuing it at constant volume, or with another pressure, is refused;
#      velocity Verlet with --pressure is refused.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_barostat "$@"
opts=(--no-window --report-every 50 --traj-every 50 --checkpoint-every 100 --seed 5 --pressure 1
  --barostat-every 10)
"$vkmd" run water:216 "${opts[@]}" --steps 300 --out "$scratch/a" >"$scratch/a.log" 2>&1 ||
  { cli_skip_without_device "$scratch/a.log" cli_barostat; bad "NPT run: $(tail -3 "$scratch/a.log")"; }
if $py - "$scratch/a" <<'PY'; then ok "energy.csv box columns, the volume moves, CRYST1 is the last box"; else bad "box outputs"; fi
import sys
out = sys.argv[1]
lines = [l for l in open(out + "/energy.csv").read().splitlines() if not l.startswith("#")]
hdr = lines[0].split(",")
assert hdr[-5:] == ["volume_A3", "density_g_cm3", "box_x_A", "box_y_A", "box_z_A"], hdr
V, RHO, BX, BY, BZ = (hdr.index(n) for n in hdr[-5:])
rows = [[float(x) for x in l.split(",")] for l in lines[1:]]
vols = [r[V] for r in rows]
assert len(set(vols)) > 2, vols
for r in rows:
    assert abs(r[RHO] * r[V] - 216 * 18.01528 / 0.602214076) / (r[RHO] * r[V]) < 1e-4, r
    assert abs(r[BX] * r[BY] * r[BZ] - r[V]) < 1e-3 * r[V], r
    assert r[BX] == r[BY] == r[BZ], r  # iso from a cubic box
print("  volumes %.1f .. %.1f A^3, densities %.4f .. %.4f g/cm^3" %
      (min(vols), max(vols), min(r[RHO] for r in rows), max(r[RHO] for r in rows)))
cryst = [l for l in open(out + "/final.pdb") if l.startswith("CRYST1")][0]
a = float(cryst[6:15])
assert abs(a - rows[-1][BX]) < 2e-3, (cryst, rows[-1])
PY
"$vkmd" run water:216 "${opts[@]}" --steps 100 --out "$scratch/b" >"$scratch/b.log" 2>&1 ||
  bad "first part: $(tail -3 "$scratch/b.log")"
if "$vkmd" run water:216 "${opts[@]}" --steps 300 --out "$scratch/b" --restart "$scratch/b/checkpoint.chk" \
  >"$scratch/b2.log" 2>&1; then ok "--restart finishes the NPT run"; else bad "restart: $(tail -3 "$scratch/b2.log")"; fi
cmp -s "$scratch/a/traj.dcd" "$scratch/b/traj.dcd" && ok "traj.dcd identical to the uninterrupted run" ||
  bad "traj.dcd differs"
cmp -s "$scratch/a/final.pdb" "$scratch/b/final.pdb" && ok "final.pdb identical" || bad "final.pdb differs"
if diff <(cut -d, -f1-6,8- "$scratch/a/energy.csv") <(cut -d, -f1-6,8- "$scratch/b/energy.csv") >/dev/null; then
  ok "energy.csv identical but for ns_per_day, box columns included ($(grep -vc '^#' "$scratch/b/energy.csv") lines)"
else bad "energy.csv differs"; fi
refuse() { # what expected-text args...
  local what=$1 want=$2
  shift 2
  if "$vkmd" run water:216 --no-window --report-every 50 --checkpoint-every 100 --seed 5 --steps 300 \
    "$@" >"$scratch/c.log" 2>&1; then
    bad "$what accepted"
  elif grep -q "$want" "$scratch/c.log"; then
    ok "$what refused: $(grep -m1 "$want" "$scratch/c.log")"
  else bad "$what: unexpected message: $(cat "$scratch/c.log")"; fi
}
refuse "NPT checkpoint continued at constant volume" "written with --pressure" --out "$scratch/c" \
  --restart "$scratch/a/checkpoint.chk"
refuse "NPT checkpoint continued at another pressure" "written with pressure_bar 1" --pressure 2 \
  --barostat-every 10 --out "$scratch/c" --restart "$scratch/a/checkpoint.chk"
refuse "velocity Verlet with --pressure" "needs a thermostat" --pressure 1 --integrator verlet \
  --out "$scratch/d"
refuse "--barostat with an unknown mode" "barostat" --pressure 1 --barostat cubic --out "$scratch/d"
cli_finish test_cli_barostat
