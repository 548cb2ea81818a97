#!/usr/bin/env bash
# `vkmd uff relax` end to end, small enough for CI (formic acid, 16 replicas),
# with the default minimiser (quasi-Newton, docs/UFF_RELAX.md) unless named:
#   - CPU reference of 16 starts (--replicas 16 --perturb 0.1 --seed 3):
#     every replica converges, JSON with units; the same with
#     --minimizer fire;
#   - the device relaxes the same starts: every replica converges, final
#     energies within 1e-3 kcal/mol of the CPU's, and a second run prints
#     the same digits;
#   - the SDF written has 16 records whose energies (vkmd uff energy, 4
#     decimals re-read) are within 1e-4 kcal/mol of the reported ones, and
#     relaxing it again (--confs) is converged within a few steps;
#   - usage errors exit 2.
# Without a Vulkan device the device parts are skipped, unless
# VKMD_REQUIRE_DEVICE=1, where they fail.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args uff_relax_cli "$@"
start="formic-acid --replicas 16 --perturb 0.1 --seed 3"

# shellcheck disable=SC2086
if "$vkmd" uff relax $start --device cpu --out "$scratch/cpu.sdf" --json >"$scratch/cpu.json"; then
  ok "relax on the CPU reference"
else
  bad "relax on the CPU reference failed"
fi
$py - "$scratch/cpu.json" <<'PY' && ok "cpu: every replica converged" || bad "cpu: not every replica converged"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["units"]["energy"] == "kcal/mol" and d["n_replicas"] == 16
r = d["replicas"]
print("    cpu: %d/%d converged, steps %d..%d, E %.6f..%.6f" % (d["n_converged"], len(r),
      min(x["steps"] for x in r), max(x["steps"] for x in r),
      min(x["energy_final_kcal_per_mol"] for x in r), max(x["energy_final_kcal_per_mol"] for x in r)))
sys.exit(0 if d["n_converged"] == 16 else 1)
PY

# shellcheck disable=SC2086
if "$vkmd" uff relax $start --minimizer fire --device cpu --out "$scratch/fire.sdf" --json >"$scratch/fire.json"; then
  $py - "$scratch/fire.json" <<'PY' && ok "cpu FIRE: every replica converged" || bad "cpu FIRE: not every replica converged"
import json, sys
d = json.load(open(sys.argv[1]))
print("    cpu FIRE: %d/16 converged, at most %d steps" % (d["n_converged"], max(r["steps"] for r in d["replicas"])))
sys.exit(0 if d["n_converged"] == 16 and d["minimiser"] == "FIRE" else 1)
PY
else
  bad "relax --minimizer fire on the CPU reference failed"
fi

if "$vkmd" uff energy formic-acid --device 0 >/dev/null 2>"$scratch/dev.err"; then
  have_device=1
else
  have_device=0
  cli_no_device "$(cat "$scratch/dev.err")"
fi

if [ $have_device = 1 ]; then
  # shellcheck disable=SC2086
  "$vkmd" uff relax $start --device 0 --out "$scratch/dev.sdf" --json >"$scratch/dev.json" || bad "device relax failed"
  # shellcheck disable=SC2086
  "$vkmd" uff relax $start --device 0 --out "$scratch/dev2.sdf" --json >"$scratch/dev2.json" || bad "device relax (2) failed"
  # host_checks counts submissions, paced by wall time (about 0.5 s each):
  # it may differ between runs; the results may not.
  if cmp -s <(grep -v '"host_checks"' "$scratch/dev.json") \
    <(sed 's/dev2.sdf/dev.sdf/' "$scratch/dev2.json" | grep -v '"host_checks"') &&
    cmp -s "$scratch/dev.sdf" "$scratch/dev2.sdf"; then
    ok "device: two runs print the same digits (submissions aside) and write the same file"
  else
    bad "device: two runs differ"
  fi
  $py - "$scratch/cpu.json" "$scratch/dev.json" <<'PY' && ok "device: all converged, minima as the CPU's" || bad "device vs cpu"
import json, sys
c = json.load(open(sys.argv[1]))["replicas"]
d = json.load(open(sys.argv[2]))
worst = max(abs(a["energy_final_kcal_per_mol"] - b["energy_final_kcal_per_mol"]) for a, b in zip(c, d["replicas"]))
print("    device: %d/16 converged in %d host checks; worst |E_dev - E_cpu| = %.2e kcal/mol" % (d["n_converged"], d["host_checks"], worst))
sys.exit(0 if d["n_converged"] == 16 and worst <= 1e-3 else 1)
PY
  n=$(grep -c '^\$\$\$\$' "$scratch/dev.sdf")
  [ "$n" = 16 ] && ok "dev.sdf has 16 records" || bad "dev.sdf has $n records"
  "$vkmd" uff energy "$scratch/dev.sdf" --json >"$scratch/reread.json" || bad "energy of dev.sdf failed"
  $py - "$scratch/dev.json" "$scratch/reread.json" <<'PY' && ok "dev.sdf re-read: energies as reported" || bad "dev.sdf energies"
import json, sys
d = json.load(open(sys.argv[1]))["replicas"]
e = json.load(open(sys.argv[2]))
recs = e.get("records") or e.get("molecules")
tot = [c["energy"]["total_kcal_per_mol"] for r in recs for c in r["conformers"]]
worst = max(abs(a["energy_final_kcal_per_mol"] - b) for a, b in zip(d, tot))
print("    %d records re-read (4 decimals): worst |dE| = %.2e kcal/mol" % (len(tot), worst))
sys.exit(0 if len(tot) == 16 and worst <= 1e-4 else 1)
PY
  "$vkmd" uff relax formic-acid --confs "$scratch/dev.sdf" --device 0 --out "$scratch/again.sdf" --json >"$scratch/again.json" || bad "relax --confs failed"
  $py - "$scratch/again.json" <<'PY' && ok "relax --confs of relaxed structures: converged at once" || bad "relax --confs"
import json, sys
d = json.load(open(sys.argv[1]))
s = max(r["steps"] for r in d["replicas"])
print("    %d starts from dev.sdf: %d converged, at most %d steps" % (d["n_replicas"], d["n_converged"], s))
sys.exit(0 if d["n_replicas"] == 16 and d["n_converged"] == 16 and s <= 200 else 1)
PY
fi

for args in "formic-acid --replicas 2" "formic-acid --out x.sdf --confs a.sdf --replicas 2" \
  "formic-acid --out x.sdf --bogus" "formic-acid --out x.sdf --ftol 0"; do
  # shellcheck disable=SC2086
  "$vkmd" uff relax $args >/dev/null 2>"$scratch/usage.err"
  rc=$?
  if [ $rc = 2 ]; then ok "relax $args: exit 2, $(head -c 100 "$scratch/usage.err")"; else bad "relax $args: rc $rc"; fi
done

cli_finish test_uff_relax_cli
