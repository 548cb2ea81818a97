#!/usr/bin/env bash
# `vkmd uff energy` end to end: the built-in molecules and every record of
# tests/data/uff/molecules.sdf against RDKit's totals (rdkit_reference.txt),
# JSON with units, the forces file, the Coulomb option, --device (cpu here; the
# Vulkan devices in test_uff_scan_cli.sh), usage errors (exit 2) and every
# broken input of tests/broken/uff
# (exit 1, message names the file, no crash; under the sanitizer build also no
# leaks).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args uff_cli "$@"

# 1. Built-in molecules, text: a total line, exit 0.
for mol in formic-acid xylitol; do
  if "$vkmd" uff energy "$mol" --types >"$scratch/$mol.txt" 2>"$scratch/$mol.err" &&
    grep -q '^  total ' "$scratch/$mol.txt" && grep -q 'C_' "$scratch/$mol.txt"; then
    ok "vkmd uff energy $mol: $(grep '^  total ' "$scratch/$mol.txt" | tr -s ' ')"
  else
    bad "vkmd uff energy $mol: $(cat "$scratch/$mol.err")"
  fi
done

# 2. JSON of every record of the committed SDF against RDKit's totals; units, terms
# summing to the total, forces per atom summing to zero; the forces file.
"$vkmd" uff energy "$src/data/uff/molecules.sdf" --json --forces "$scratch/f.txt" \
  >"$scratch/all.json" 2>"$scratch/all.err"
rc=$?
if [ $rc = 0 ] && $py - "$scratch/all.json" "$src/data/uff/rdkit_reference.txt" "$scratch/f.txt" <<'PY'; then ok "--json of 57 records matches RDKit's totals; units, terms, forces file"; else bad "--json (rc $rc): $(cat "$scratch/all.err")"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert d["units"] == {"energy": "kcal/mol", "force": "kcal/mol/angstrom", "length": "angstrom"}
assert d["device"].startswith("cpu")
ref, name = {}, None
for line in open(sys.argv[2]):
    w = line.split()
    if w and w[0] == "molecule":
        name = w[1]
    elif w and w[0] == "energy_total_kcal_per_mol":
        ref[name] = float(w[1])
recs = d["records"]
assert len(recs) == len(ref) == 57, (len(recs), len(ref))
worst = 0.0
for r in recs:
    c = r["conformers"][0]
    e = c["energy"]
    parts = sum(e[k + "_kcal_per_mol"] for k in ("bond", "angle", "torsion", "inversion", "vdw", "coulomb"))
    assert abs(parts - e["total_kcal_per_mol"]) <= 1e-8 * max(1.0, abs(parts)), r["name"]
    want = ref[r["name"]]
    rel = abs(e["total_kcal_per_mol"] - want) / abs(want)
    worst = max(worst, rel)
    assert rel <= 1e-4, (r["name"], e["total_kcal_per_mol"], want)
    f = c["forces_kcal_per_mol_per_a"]
    assert len(f) == r["n_atoms"] == len(r["types"])
    for k in range(3):  # printed with 11 digits: zero to that precision
        assert abs(sum(v[k] for v in f)) <= 1e-9 * sum(abs(v[k]) for v in f), r["name"]
print(f"    worst relative difference to RDKit's total over {len(recs)} records: {worst:.2e}")
rows = [l for l in open(sys.argv[3]) if not l.startswith("#")]
assert len(rows) == sum(r["n_atoms"] for r in recs), len(rows)
assert "kcal/mol/A" in open(sys.argv[3]).readline()
PY

# 3. Coulomb with given charges: the term appears and the total includes it.
printf -- "-0.6 0.6 -0.5\n0.4 0.1\n" >"$scratch/q.txt"
"$vkmd" uff energy formic-acid --json >"$scratch/q0.json" 2>/dev/null
if "$vkmd" uff energy formic-acid --json --charges "$scratch/q.txt" --dielectric 4 >"$scratch/q1.json" 2>"$scratch/q1.err" &&
  $py - "$scratch/q0.json" "$scratch/q1.json" <<'PY'; then ok "--charges adds a Coulomb term (dielectric 4)"; else bad "--charges: $(cat "$scratch/q1.err")"; fi
import json, sys
a = json.load(open(sys.argv[1]))["records"][0]["conformers"][0]["energy"]
d = json.load(open(sys.argv[2]))
b = d["records"][0]["conformers"][0]["energy"]
assert d["coulomb"] is True and d["dielectric"] == 4
assert a["coulomb_kcal_per_mol"] == 0 and b["coulomb_kcal_per_mol"] != 0
assert abs(b["total_kcal_per_mol"] - a["total_kcal_per_mol"] - b["coulomb_kcal_per_mol"]) < 1e-8
print(f"    Coulomb {b['coulomb_kcal_per_mol']:.6f} kcal/mol")
PY

# 4. Devices: cpu accepted, a device that does not exist refused naming it.
if "$vkmd" uff energy formic-acid --device cpu >/dev/null 2>&1; then ok "--device cpu"; else bad "--device cpu refused"; fi
"$vkmd" uff energy formic-acid --device no-such-device >/dev/null 2>"$scratch/dev.err"
rc=$?
if [ $rc = 1 ] && grep -q "no-such-device" "$scratch/dev.err"; then ok "--device no-such-device refused: $(cat "$scratch/dev.err")"; else bad "--device no-such-device (rc $rc): $(cat "$scratch/dev.err")"; fi
if "$vkmd" uff --help | grep -q -- "--device cpu"; then ok "help names --device cpu"; else bad "help lacks --device"; fi

# 5. Usage errors: exit 2 and a message.
for args in "uff" "uff bogus" "uff energy" "uff energy formic-acid --bogus" "uff energy formic-acid xylitol" "uff energy formic-acid --dielectric x"; do
  # shellcheck disable=SC2086
  "$vkmd" $args >/dev/null 2>"$scratch/usage.err"
  rc=$?
  if [ $rc = 2 ] && [ -s "$scratch/usage.err" ]; then ok "vkmd $args: exit 2"; else bad "vkmd $args: rc $rc"; fi
done

# 6. Every broken input: exit 1, the message names the file, no crash.
while read -r file stage code line msg; do
  case "$file" in "#"* | "") continue ;; esac
  "$vkmd" uff energy "$src/broken/uff/$file" >/dev/null 2>"$scratch/broken.err"
  rc=$?
  if [ $rc = 1 ] && grep -q -- "$file" "$scratch/broken.err" && grep -q -F -- "$msg" "$scratch/broken.err"; then
    ok "$file: exit 1, $(head -c 110 "$scratch/broken.err")"
  else
    bad "$file: rc $rc: $(cat "$scratch/broken.err")"
  fi
done <"$src/broken/uff/MANIFEST"

cli_finish test_uff_cli
