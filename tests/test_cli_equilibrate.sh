#!/usr/bin/env bash
# `vkmd equilibrate` end to end on water_nacl with its ions restrained, every
# stage shortened (engine/run/equilibrate.h):
#   1. the four stages complete; the JSON summary has each stage's figures
#      and a final density; equilibrate.csv shows the protocol: the bath
#      raised in increments at constant volume, then constant pressure with
#      the restraint constant tapered to 0, then free;
#   2. every stage's checkpoint and the final state (final.rst7 with
#      velocities and box, final.chk, final.pdb) are written, and `vkmd run
#      --coords final.rst7` (and final.chk) starts from the final box;
#   3. a vacuum system, a mask that selects nothing and a bad value are
#      refused with clear messages;
#   4. SIGTERM in the density stage and SIGINT in the minimisation stop it
#      within 5 s with 143 / 130 and one line; what it wrote continues.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_equilibrate "$@"
data=$src/data
sys=(--coords "$data/water_nacl.inpcrd")
short=(--heat-ps 0.2 --heat-increments 2 --density-ps 0.4 --taper-stages 2 --release-ps 0.4
  --report-every 50 --min-iterations 200 --seed 4 --precision single)

# 1. The protocol.
if "$vkmd" equilibrate "$data/water_nacl.prmtop" "${sys[@]}" --restrain ':NA,CL' "${short[@]}" \
  --json --out "$scratch/a" >"$scratch/a.json" 2>"$scratch/a.log"; then
  ok "four stages completed ($(grep -c . "$scratch/a/equilibrate.csv") lines of equilibrate.csv)"
else
  cli_skip_without_device "$scratch/a.log" test_cli_equilibrate
  bad "equilibrate: $(tail -3 "$scratch/a.log")"
fi
if $py - "$scratch/a" "$scratch/a.json" <<'PY'; then ok "JSON summary and equilibrate.csv follow the protocol"; else bad "summary or equilibrate.csv"; fi
import csv, json, sys
out, js = sys.argv[1], json.load(open(sys.argv[2]))
assert js["restrained_atoms"] == 12, js["restrained_atoms"]
names = [s["name"] for s in js["stages"]]
assert names == ["minimise", "heat", "density", "free"], names
assert [s["steps"] for s in js["stages"]] == [0, 100, 200, 200], js["stages"]
assert 0.85 < js["density_g_cm3"] < 1.15, js["density_g_cm3"]
assert 0 < js["barostat_acceptance"] <= 1, js
rows = list(csv.DictReader(l for l in open(out + "/equilibrate.csv") if not l.startswith("#")))
by = {}
for r in rows:
    by.setdefault(r["stage"], []).append(r)
heat, dens, free = by["heat"], by["density"], by["free"]
assert [float(r["bath_K"]) for r in heat] == [150, 300], [r["bath_K"] for r in heat]
assert all(float(r["restraint_k_kcal_mol_A2"]) == 10 for r in heat)
assert len({r["volume_A3"] for r in by["minimise"] + heat}) == 1, "the volume moved at constant volume"
assert [float(r["restraint_k_kcal_mol_A2"]) for r in dens] == [10, 10, 0, 0], dens
assert all(float(r["restraint_k_kcal_mol_A2"]) == 0 for r in free)
assert float(dens[0]["restraint_kcal_mol"]) > 0 and float(free[-1]["restraint_kcal_mol"]) == 0
vols = {r["volume_A3"] for r in dens + free}
assert len(vols) > 1, "the volume never moved at constant pressure"
assert all(float(r["solute_rmsd_A"]) < 1.0 for r in heat), "restrained ions moved"
print("  heat T %s K; density %.4f g/cm^3 (box %s A); %d volumes seen" %
      ([r["temperature_K"] for r in heat], js["density_g_cm3"], js["box_A"], len(vols)))
PY

# 2. Stage checkpoints and the final state.
for f in stage_1_minimise.chk stage_2_heat.chk stage_3_density.chk stage_4_free.chk final.chk \
  final.rst7 final.pdb energy.csv traj.dcd; do
  [ -s "$scratch/a/$f" ] || bad "no $f"
done
ok "stage checkpoints and the final state written"
box=$(tail -1 "$scratch/a/final.rst7" | awk '{print $1}')
for start in final.rst7 final.chk; do
  if "$vkmd" run "$data/water_nacl.prmtop" --coords "$scratch/a/$start" --no-window --steps 50 \
    --report-every 50 --out "$scratch/r_$start" >"$scratch/r.log" 2>&1; then
    got=$(grep -v '^#' "$scratch/r_$start/energy.csv" | sed -n 2p | cut -d, -f10)
    if $py -c "import sys; sys.exit(0 if abs(float('$got') - float('$box')) < 1e-3 else 1)"; then
      ok "vkmd run --coords $start starts from the final box ($got A)"
    else bad "run from $start: box $got, final.rst7 has $box"; fi
  else bad "vkmd run --coords $start: $(tail -3 "$scratch/r.log")"; fi
done

# 4. A stop request in each kind of stage (engine/run/equilibrate.h): SIGTERM
# at a seeded moment once the density stage reports (the checkpoint holds
# its step; vkmd run --coords continues from it), SIGINT in the
# minimisation (its structure written, not converged, and loadable). Each
# exits within 5 s (printed) with 143 / 130 and one line.
RANDOM=${VKMD_STOP_SEED:-1}
long=(--heat-ps 0.2 --heat-increments 2 --density-ps 40 --taper-stages 2 --release-ps 40
  --report-every 25 --seed 4 --precision single)
"$vkmd" equilibrate "$data/water_nacl.prmtop" "${sys[@]}" --restrain ':NA,CL' "${long[@]}" \
  --min-iterations 200 --out "$scratch/st" >"$scratch/st.log" 2>&1 &
pid=$!
for _ in $(seq 1 6000); do
  grep -q '^density,' "$scratch/st/equilibrate.csv" 2>/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.02
done
sleep "$(printf '0.%03d' $((RANDOM % 500)))"
if kill -0 $pid 2>/dev/null; then
  cli_signal_check $pid TERM 143 "vkmd equilibrate: stopped by SIGTERM at step [0-9]* (density" "$scratch/st.log"
  if "$vkmd" run "$data/water_nacl.prmtop" --coords "$scratch/st/checkpoint.chk" --no-window \
    --steps 20 --report-every 10 --out "$scratch/st_run" >"$scratch/st_run.log" 2>&1; then
    ok "vkmd run --coords checkpoint.chk continues the stopped equilibration"
  else bad "run from the stopped equilibration: $(tail -3 "$scratch/st_run.log")"; fi
else bad "equilibrate ended before the density stage's SIGTERM: $(tail -3 "$scratch/st.log")"; fi
"$vkmd" equilibrate "$data/water_nacl.prmtop" "${sys[@]}" --restrain ':NA,CL' "${long[@]}" \
  --min-iterations 100000 --min-tol 1e-6 --out "$scratch/sm" >"$scratch/sm.log" 2>&1 &
pid=$!
for _ in $(seq 1 6000); do # the stage's row comes at its end: wait for the MD's set-up line
  grep -q 'vkmd equilibrate: step: ' "$scratch/sm.log" 2>/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.02
done
sleep "$(printf '%d.%03d' $((1 + RANDOM % 2)) $((RANDOM % 1000)))"
if kill -0 $pid 2>/dev/null; then
  cli_signal_check $pid INT 130 "vkmd equilibrate: stopped by SIGINT in the minimisation" "$scratch/sm.log"
  part=$(grep -o 'continue with the same options and --coords [^ ]*' "$scratch/sm.log" | awk '{print $NF}')
  if [ -s "$part" ] && "$vkmd" energy "$data/water_nacl.prmtop" --coords "$part" >/dev/null 2>&1; then
    ok "the stopped minimisation's structure loads ($part)"
  else bad "stopped minimisation: structure '$part'"; fi
else bad "equilibrate ended before the minimisation's SIGINT: $(tail -3 "$scratch/sm.log")"; fi

# 3. Refusals.
refuse() { # what expected args...
  local what=$1 want=$2
  shift 2
  if "$vkmd" equilibrate "$@" --out "$scratch/x" >"$scratch/x.log" 2>&1; then
    bad "$what accepted"
  elif grep -q -- "$want" "$scratch/x.log"; then
    ok "$what refused: $(grep -m1 'vkmd equilibrate' "$scratch/x.log")"
  else bad "$what: unexpected message: $(cat "$scratch/x.log")"; fi
}
refuse "a vacuum system" "no periodic box" "$data/villin_vac.prmtop" "${short[@]}"
refuse "a mask that selects nothing" "selects no atom" "$data/water_nacl.prmtop" "${sys[@]}" \
  --restrain ':XYZ' "${short[@]}"
refuse "a negative pressure" "--pressure" "$data/water_nacl.prmtop" --pressure -1
refuse "an unknown option" "unknown option" "$data/water_nacl.prmtop" --heat 3

cli_finish test_cli_equilibrate
