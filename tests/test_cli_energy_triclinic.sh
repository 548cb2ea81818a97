#!/usr/bin/env bash
# `vkmd energy` on a truncated octahedron (tests/data/tiny_octahedron: prmtop
# IFBOX = 2, rst7 box line with 109.4712206 degree angles) on the CPU
# reference: JSON with the box's lengths, angles and volume and a finite total
# equal to the sum of its parts; the text report names the angles; the
# default 9 A cutoff is refused because the cell is 17.05 A between its
# closest faces (exit 1, message naming the file). No device needed.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_energy_triclinic "$@"

top=$src/data/tiny_octahedron.prmtop crd=$src/data/tiny_octahedron.rst7

"$vkmd" energy "$top" --coords "$crd" --cutoff 8 --json >"$scratch/e.json" 2>"$scratch/e.err"
rc=$?
if [ $rc = 0 ] && $py - "$scratch/e.json" <<'PY'; then ok "--json: box lengths, angles, volume, total"; else bad "--json (rc $rc): $(cat "$scratch/e.err")"; fi
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["box_a"] == [20.0, 21.0, 22.0], d["box_a"]
assert d["box_angles_deg"] == [109.4712206] * 3, d["box_angles_deg"]
c = math.cos(math.radians(109.4712206))
v = 20 * 21 * 22 * math.sqrt(1 - 3 * c * c + 2 * c ** 3)
assert abs(d["box_volume_a3"] - v) < 1e-5, (d["box_volume_a3"], v)
parts = d["bond"] + d["angle"] + d["dihedral"] + d["lj"] + d["coulomb"]
assert math.isfinite(d["total"]) and abs(parts - d["total"]) < 1e-9 * max(1, abs(d["total"]))
print("    total %.6f kcal/mol, volume %.4f A^3, grid %s" % (d["total"], d["box_volume_a3"], d["pme_grid"]))
PY

if "$vkmd" energy "$top" --coords "$crd" --cutoff 8 >"$scratch/e.txt" 2>"$scratch/t.err" &&
  grep -q '^triclinic box: angles 109.4712206 109.4712206 109.4712206 degrees' "$scratch/e.txt"; then
  ok "text report names the angles"
else
  bad "text report: $(cat "$scratch/e.txt" "$scratch/t.err")"
fi

"$vkmd" energy "$top" --coords "$crd" >"$scratch/out.txt" 2>"$scratch/err.txt"
rc=$?
if [ $rc = 1 ] && grep -qF "tiny_octahedron.rst7" "$scratch/err.txt" &&
  grep -qF "17.0497 A wide between its closest faces" "$scratch/err.txt"; then
  ok "default cutoff refused: $(head -c 200 "$scratch/err.txt")"
else
  bad "default cutoff: rc $rc: $(cat "$scratch/err.txt")"
fi

cli_finish cli_energy_triclinic
