#!/usr/bin/env bash
# Generalized Born implicit solvent end to end (docs/IMPLICIT.md), on the
# prmtops with GB radii that tests/oracles/openmm_gb.py writes (fixture
# openmm_gb_data):
#   1. vkmd energy --implicit (CPU reference): the whole potential energy
#      against OpenMM 7.7's Reference platform on the same prmtop
#      (createSystem(implicitSolvent=...)), for GBn2 and OBC2 with salt and
#      ACE, 1e-6 relative; the JSON names the model;
#   2. the device against the reference: every term and the total;
#   3. vkmd run --implicit: short Langevin dynamics stays finite and near
#      its bath; vkmd equilibrate --implicit runs its protocol without a
#      density stage;
#   4. refusals with a message and exit status: a system with a box, a
#      prmtop without radii, an unknown model; a --restart with another
#      model.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 build testdata dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_implicit "$@"
data=$gen
villin=$data/gb_villin_vac_mbondi3.prmtop
villin2=$data/gb_villin_vac_mbondi2.prmtop
ala=$data/gb_ala2_vac_mbondi3.prmtop
vcrd=$src/data/villin_vac.inpcrd
acrd=$src/data/ala2_vac.inpcrd
for f in "$villin" "$villin2" "$ala"; do
  [ -f "$f" ] || { err "missing $f (the openmm_gb_data fixture writes it)"; cli_finish cli_implicit; }
done

# 1. The whole energy against OpenMM's.
check_openmm() { # prmtop coords model salt gbsa label
  local out=$scratch/$6.json
  if ! "$vkmd" energy "$1" --coords "$2" --implicit "$3" --salt "$4" --gbsa "$5" --json \
    >"$out" 2>"$scratch/$6.err"; then
    bad "$6: vkmd energy: $(cat "$scratch/$6.err")"
    return
  fi
  $py - "$1" "$2" "$3" "$4" "$5" "$out" <<'PY' && ok "$6: total matches OpenMM's (reference)" || bad "$6: total differs from OpenMM's"
import json, sys, warnings
warnings.filterwarnings("ignore")
import openmm as mm, openmm.app as app, openmm.unit as u
prmtop, crd, model, salt, gbsa, out = sys.argv[1:]
d = json.load(open(out))
assert d["implicit_solvent"] == model and d["gbsa"] == gbsa, d
solvent = {"hct": app.HCT, "obc1": app.OBC1, "obc2": app.OBC2, "gbn": app.GBn, "gbn2": app.GBn2}
p = app.AmberPrmtopFile(prmtop)
system = p.createSystem(nonbondedMethod=app.NoCutoff, constraints=None,
                        implicitSolvent=solvent[model], implicitSolventSaltConc=float(salt) * u.molar,
                        gbsaModel="ACE" if gbsa == "ace" else None)
c = mm.Context(system, mm.VerletIntegrator(0.001), mm.Platform.getPlatformByName("Reference"))
c.setPositions(app.AmberInpcrdFile(crd).positions)
e = c.getState(getEnergy=True).getPotentialEnergy().value_in_unit(u.kilocalorie_per_mole)
rel = abs(d["total"] - e) / abs(e)
print("  %s: vkmd %.8f, OpenMM %.8f kcal/mol (gb %.6f, nonpolar %.6f; rel %.1e)" % (
    model, d["total"], e, d["gb"], d["nonpolar"], rel))
assert rel < 1e-6, rel
PY
}
check_openmm "$villin" "$vcrd" gbn2 0 none villin_gbn2
check_openmm "$villin2" "$vcrd" obc2 0.15 ace villin_obc2_salt_ace
check_openmm "$ala" "$acrd" gbn2 0.1 ace ala2_gbn2_salt_ace

# 2. The device against the reference, every term.
for m in gbn2 obc2; do
  p=$villin
  [ $m = obc2 ] && p=$villin2
  if "$vkmd" energy "$p" --coords "$vcrd" --implicit $m --gbsa ace --salt 0.15 --device gpu \
    --json >"$scratch/dev_$m.json" 2>"$scratch/dev_$m.err"; then
    "$vkmd" energy "$p" --coords "$vcrd" --implicit $m --gbsa ace --salt 0.15 --json \
      >"$scratch/ref_$m.json" 2>/dev/null
    $py - "$scratch/ref_$m.json" "$scratch/dev_$m.json" $m <<'PY' && ok "device $m: gb, nonpolar and total within 1e-5 of the reference" || bad "device $m differs from the reference"
import json, sys
r, d = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for k in ("gb", "nonpolar", "total"):
    err = abs(d[k] - r[k]) / max(abs(r[k]), 1.0)
    print("  %s %-8s device %.6f reference %.6f (%.1e)" % (sys.argv[3], k, d[k], r[k], err))
    assert err < 1e-5, (k, err)
PY
  else
    cli_skip_without_device "$scratch/dev_$m.err" cli_implicit
    bad "device $m: $(cat "$scratch/dev_$m.err")"
  fi
done

# 3. Dynamics and the equilibration protocol.
if "$vkmd" run "$ala" --coords "$acrd" --implicit gbn2 --no-window --steps 2000 --report-every 100 \
  --minimize --out "$scratch/run" --json >"$scratch/run.json" 2>"$scratch/run.err"; then
  $py - "$scratch/run.json" "$scratch/run/energy.csv" <<'PY' && ok "run --implicit gbn2: $(grep -m1 -o 'T [0-9.]* +- [0-9.]* K' "$scratch/run.err")" || bad "run --implicit: summary or energy.csv"
import csv, json, math, sys
d = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
rows = list(csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")))
assert len(rows) == 21, len(rows)  # step 0 and every 100 steps
for r in rows:
    assert all(math.isfinite(float(v)) for k, v in r.items() if k not in ("stage",)), r
t = d["mean_temperature_K"]
assert 200 < t < 400, t  # 22 atoms: a wide spread about 300 K
PY
else
  bad "run --implicit gbn2: $(tail -3 "$scratch/run.err")"
fi
if "$vkmd" equilibrate "$ala" --coords "$acrd" --implicit gbn2 --heat-ps 0.4 --density-ps 0.4 \
  --release-ps 0.4 --report-every 50 --out "$scratch/eq" >"$scratch/eq.out" 2>"$scratch/eq.err"; then
  stages=$(grep -v '^#' "$scratch/eq/equilibrate.csv" | cut -d, -f1 | sed 1d | uniq | tr '\n' ' ')
  if [ "$stages" = "minimise heat release free " ] && grep -q 'no density stage' "$scratch/eq.out"; then
    ok "equilibrate --implicit: heat, release (no density stage), free"
  else
    bad "equilibrate --implicit stages: $(cut -d, -f1 "$scratch/eq/equilibrate.csv" | sort -u | tr '\n' ' ')"
  fi
else
  bad "equilibrate --implicit: $(tail -3 "$scratch/eq.err")"
fi

# 4. Refusals.
refused() { # label expected-text command...
  local label=$1 text=$2
  shift 2
  "$@" >"$scratch/r.out" 2>&1
  local rc=$?
  if [ $rc != 0 ] && grep -q -- "$text" "$scratch/r.out"; then
    ok "$label refused (exit $rc): $(grep -m1 -- "$text" "$scratch/r.out")"
  else
    bad "$label: exit $rc: $(head -2 "$scratch/r.out")"
  fi
}
refused "a box" "periodic box" "$vkmd" energy water:216 --implicit obc2
refused "no radii" "zero GB radii" "$vkmd" energy "$src/data/villin_vac.prmtop" --implicit gbn2
refused "unknown model" "gbn5" "$vkmd" energy "$villin" --coords "$vcrd" --implicit gbn5
if [ -f "$scratch/run/checkpoint.chk" ]; then
  refused "--restart with another model" "implicit" "$vkmd" run "$ala" --coords "$acrd" \
    --implicit obc2 --no-window --steps 3000 --report-every 100 --out "$scratch/run" \
    --restart "$scratch/run/checkpoint.chk"
fi

cli_finish cli_implicit
