#!/usr/bin/env bash
# `vkmd energy` end to end: the default job, JSON with units, the forces file,
# the GPU path (every term) against the CPU reference, and every malformed input of
# tests/broken/MANIFEST through the command line (message names the file,
# exit code 1, no crash; under the sanitizer build also no leaks).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_energy "$@"

# 1. The README's default job.
if "$vkmd" energy water:216 >"$scratch/default.txt" 2>"$scratch/default.err" &&
  grep -q '^total ' "$scratch/default.txt"; then
  ok "vkmd energy water:216 prints a total"
else
  bad "vkmd energy water:216: $(cat "$scratch/default.err")"
fi

# 2. JSON: parseable, units named, every key present and consistent.
"$vkmd" energy "$src/data/water_box.prmtop" --json --forces "$scratch/f.txt" >"$scratch/e.json" 2>"$scratch/e.err"
rc=$?
if [ $rc = 0 ] && $py - "$scratch/e.json" "$scratch/f.txt" <<'PY'; then ok "--json keys and --forces file"; else bad "--json/--forces (rc $rc): $(cat "$scratch/e.err")"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert d["units"]["energy"] == "kcal/mol" and d["units"]["length"] == "angstrom", d["units"]
for k in ("n_atoms", "bond", "angle", "dihedral", "lj", "coulomb", "total", "cutoff_a",
          "ewald_alpha_per_a", "pme_grid", "pme_order", "coulomb_constant"):
    assert k in d, k
parts = d["bond"] + d["angle"] + d["dihedral"] + d["lj"] + d["coulomb"]
assert abs(parts - d["total"]) < 1e-6 * abs(d["total"]), (parts, d["total"])
rows = [l for l in open(sys.argv[2]) if not l.startswith("#")]
assert len(rows) == d["n_atoms"], (len(rows), d["n_atoms"])
assert "kcal/mol/A" in open(sys.argv[2]).readline()
PY

# 3. Every term on the Vulkan device against the CPU reference, through the
# CLI, for a vacuum protein and a periodic salt solution (the same JSON keys,
# plus the device name).
for sysname in villin_vac water_nacl; do
  "$vkmd" energy "$src/data/$sysname.prmtop" --json >"$scratch/cpu.json" 2>/dev/null
  if "$vkmd" energy "$src/data/$sysname.prmtop" --device 0 --json >"$scratch/gpu.json" 2>"$scratch/gpu.err"; then
    if $py - "$scratch/cpu.json" "$scratch/gpu.json" <<'PY'; then ok "$sysname: --device 0 matches --device cpu"; else bad "$sysname: --device 0 vs cpu"; fi
import json, sys
c, g = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# the device adds its calibration timings (vkmd energy --precision auto)
assert set(c) <= set(g) and all(k.startswith("calibration_") for k in set(g) - set(c)), set(c) ^ set(g)
assert c["precision"] == "double" and g["precision_asked"] == "auto", (c["precision"], g)
assert g["device"] != "cpu" and "Vulkan device" in g["device"], g["device"]
scale = sum(abs(c[k]) for k in ("bond", "angle", "dihedral", "lj", "coulomb"))
for k in ("bond", "angle", "dihedral", "improper", "lj_pair", "lj14", "lj_dispersion",
          "coulomb_real", "coulomb_recip", "coulomb_self", "coulomb_excl", "coulomb14", "total"):
    rel = abs(g[k] - c[k]) / max(abs(c[k]), 1e-12)
    print(f"    {k:14s} cpu {c[k]:16.6f} gpu {g[k]:16.6f} rel {rel:.2e}")
    # near-zero terms: absolute floor of 1e-7 of the summed magnitudes
    assert rel < 1e-5 or abs(g[k] - c[k]) < 1e-7 * scale, k
# the total is a small difference of large terms (villin: -65 from +-2748):
# its error is bounded relative to the terms' magnitudes, not to itself
print(f"    total error {abs(g['total'] - c['total']):.2e} kcal/mol = {abs(g['total'] - c['total']) / scale:.1e} of the terms' magnitudes")
assert abs(g["total"] - c["total"]) <= 1e-6 * scale
PY
  else
    rc=$?
    if cli_device_required; then bad "--device 0 failed (rc $rc): $(cat "$scratch/gpu.err")"; else echo "  skip --device 0: no Vulkan device"; fi
  fi
done

# 3b. Net-charge correction: off by default (as OpenMM); on, it adds exactly
# -k pi Q^2 / (2 V alpha^2) to the Coulomb energy of the charged box.
"$vkmd" energy "$src/data/water_na_charged.prmtop" --json >"$scratch/q0.json" 2>/dev/null
"$vkmd" energy "$src/data/water_na_charged.prmtop" --json --net-charge-correction >"$scratch/q1.json" 2>/dev/null
if $py - "$scratch/q0.json" "$scratch/q1.json" <<'PY'; then ok "--net-charge-correction adds the plasma term"; else bad "--net-charge-correction"; fi
import json, math, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["coulomb_net_charge"] == 0 and not a["net_charge_correction"]
q, alpha, k = b["net_charge_e"], b["ewald_alpha_per_a"], b["coulomb_k_kcal_a_per_mol_e2"]
vol = b["box_a"][0] * b["box_a"][1] * b["box_a"][2]
want = -k * math.pi * q * q / (2 * vol * alpha * alpha)
print(f"    Q {q:.4f} e, correction {b['coulomb_net_charge']:.6f} kcal/mol, formula {want:.6f}")
assert abs(q - 1) < 1e-4 and abs(b["coulomb_net_charge"] - want) < 1e-9 * abs(want)
assert abs((b["total"] - a["total"]) - want) < 1e-6
PY

# 4. Errors: message, file name, exit code.
expect_error() { # want_rc substring file-substring -- command...
  local want=$1 sub=$2 file=$3
  shift 4
  "$@" >"$scratch/out.txt" 2>"$scratch/err.txt"
  local rc=$?
  if [ $rc = "$want" ] && grep -qF -- "$sub" "$scratch/err.txt" && grep -qF -- "$file" "$scratch/err.txt" &&
    ! grep -q 'AddressSanitizer\|LeakSanitizer\|runtime error' "$scratch/err.txt"; then
    ok "rc $rc: $(head -c 150 "$scratch/err.txt" | tr '\n' ' ')"
  else
    bad "$* -> rc $rc (want $want, '$sub', '$file'): $(head -c 400 "$scratch/err.txt")"
  fi
}
while read -r sysf coords result msg; do
  case "$sysf" in '' | '#'*) continue ;; esac
  s=$sysf
  [[ $s == water:* ]] || s=$src/broken/$sysf
  named=$(basename "$sysf")
  args=("$vkmd" energy "$s")
  if [ "$coords" != - ]; then
    args+=(--coords "$src/broken/$coords")
    named=$coords
  fi
  [[ $sysf == water:* && $coords == - ]] && named=water:
  expect_error 1 "$msg" "$named" -- "${args[@]}"
done <"$src/broken/MANIFEST"

expect_error 1 "smaller than twice the cutoff" "water:100" -- "$vkmd" energy water:100
expect_error 1 "smaller than twice the cutoff" "water_box.inpcrd" -- "$vkmd" energy "$src/data/water_box.prmtop" --coords "$src/data/water_box.inpcrd" --cutoff 12
cp "$src/data/water_box.prmtop" "$scratch/nocoords.prmtop"
expect_error 1 "has no coordinates" "nocoords.prmtop" -- "$vkmd" energy "$scratch/nocoords.prmtop"
expect_error 2 "is not a number" "--cutoff" -- "$vkmd" energy water:216 --cutoff abc
expect_error 2 "NXxNYxNZ" "--pme-grid" -- "$vkmd" energy water:216 --pme-grid 3x
expect_error 2 "unknown option" "--bogus" -- "$vkmd" energy water:216 --bogus
expect_error 1 "PME grid" "order" -- "$vkmd" energy water:216 --pme-grid 4 --pme-order 6
expect_error 1 "cannot open" "nowhere/forces.txt" -- "$vkmd" energy water:216 --forces "$scratch/nowhere/forces.txt"

cli_finish test_cli_energy
