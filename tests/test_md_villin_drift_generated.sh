#!/usr/bin/env bash
# NVE energy drift of solvated villin (the generated villin_solv system,
# ~8,900 atoms: PME 9 A, ewald tolerance 5e-4, H-bond constraints, rigid water,
# 2 fs) in vkmd on the Vulkan device, beside OpenMM's with the same settings
# and protocol (minimise, Langevin-middle equilibration at 300 K, Verlet NVE;
# tests/oracles/openmm_nve_drift.py, which makes OpenMM's waters rigid as vkmd's are:
# the generated prmtop lists no H-H bond). Both drifts are least-squares slopes
# of the total energy; the check: |vkmd| <= 2 |OpenMM| + 2 combined standard
# errors of the two slopes (over 1.2 ps each slope's own noise is as large as
# the drift, and OpenMM's CPU platform is not bitwise reproducible, so its
# figure varies from run to run; all printed).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir (holds the
# generated system).
. "$(dirname "$0")/cli_lib.sh" && cli_args md_villin_drift "$@"
equil=200 steps=600
if [ "${VKMD_TEST_QUICK:-0}" = 1 ]; then equil=20 steps=60; fi
top=$gen/villin_solv.prmtop crd=$gen/villin_solv.inpcrd
if [ ! -s "$top" ] || [ ! -s "$crd" ]; then
  echo "FAIL: $top or $crd missing (the openmm_generate fixture builds them)"
  exit 1
fi
# The sanitizer build (VKMD_TEST_QUICK=1) checks vkmd's host code, not the
# comparison, so it leaves OpenMM out.
if [ "${VKMD_TEST_QUICK:-0}" != 1 ]; then
  "$py" "$src/oracles/openmm_nve_drift.py" --prmtop "$top" --inpcrd "$crd" --steps $steps \
    --equil-steps $equil --min-iterations 200 --report-every 10 --dt-fs 2 --temperature 300 \
    >"$scratch/openmm.json" 2>"$scratch/openmm.err" ||
    { echo "FAIL openmm_nve_drift.py: $(tail -5 "$scratch/openmm.err")"; fail=1; }
fi
"$vkmd" run "$top" --coords "$crd" --minimize --min-iterations 200 --equilibrate $equil --integrator verlet --dt 2 \
  --temperature 300 --steps $steps --report-every 10 --traj-every 0 --out "$scratch/vkmd" \
  --no-window --json >"$scratch/vkmd.json" 2>"$scratch/vkmd.err" ||
  { echo "FAIL vkmd run: $(tail -5 "$scratch/vkmd.err")"; fail=1; }
[ $fail = 0 ] || exit 1
"$py" - "$scratch/vkmd.json" "$scratch/openmm.json" "${VKMD_TEST_QUICK:-0}" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
quick = sys.argv[3] == "1"
if quick:
    print(f"solvated villin (quick mode, OpenMM left out): {v['atoms']} atoms, {v['steps']} NVE "
          f"steps, drift {v['energy_drift_kcal_mol_per_ns']:.4g} kcal/mol/ns, "
          f"mean T {v['mean_temperature_K']:.2f} K")
    assert v["steps"] > 0 and abs(v["energy_drift_kcal_mol_per_ns"]) < float("inf"), v
    sys.exit(0)
o = json.load(open(sys.argv[2]))
vs, os_ = v["energy_drift_kcal_mol_per_ns"], o["drift_kcal_mol_per_ns"]
ve = v.get("energy_drift_stderr_kcal_mol_per_ns", 0.0)
oe = o.get("drift_stderr_kcal_mol_per_ns", 0.0)
print(f"solvated villin, {v['atoms']} atoms, {v['steps']} NVE steps of {v['dt_fs']} fs after "
      f"minimisation and {o.get('equil_steps', '?')} Langevin steps:")
print(f"  vkmd   ({v['device']}): drift {vs:.4g} +/- {ve:.2g} kcal/mol/ns = "
      f"{v['energy_drift_kT_per_ns_per_dof']:.4g} kT/ns/dof, mean T {v['mean_temperature_K']:.2f} K")
print(f"  OpenMM {o['openmm_version']} ({o['platform']}): drift {os_:.4g} +/- {oe:.2g} kcal/mol/ns = "
      f"{o['drift_kT_per_ns_per_dof']:.4g} kT/ns/dof, mean T {o['mean_T']:.2f} K")
se = (ve * ve + oe * oe) ** 0.5
limit = 2 * abs(os_) + 2 * se
print(f"  degrees of freedom: vkmd {v['dof']}, OpenMM {o['dof']} "
      f"({o['settings']['constraints_count']} constraints)")
print(f"  check: |vkmd| {abs(vs):.4g} <= 2 |OpenMM| + 2 combined stderr = {limit:.4g} kcal/mol/ns")
assert v["atoms"] == o["atoms"], (v["atoms"], o["atoms"])
assert v["dof"] == o["dof"], ("degrees of freedom differ: the two runs constrain different bonds",
                              v["dof"], o["dof"])
assert abs(vs) <= limit, "vkmd's drift is more than 2x OpenMM's"
PY
