#!/usr/bin/env bash
# The replica exchange ensemble stops and continues without losing anything
# (`mpirun -n 2 --oversubscribe vkmd-mpi ensemble`, alanine dipeptide in
# vacuum, 2 replicas at 300 and 330 K, exchanges and reports every 100 steps,
# checkpoints every 500):
#   1. 1,000 steps in one go vs 500 steps + --restart to 1,000: every
#      replica's checkpoint, trajectory, exchange state and energy.csv (all
#      columns but the measured ns_per_day), and the ensemble's replicas.csv
#      and exchange.csv are byte for byte the same (the exchange random
#      stream and the baths continue bitwise);
#   2. a replica that fails (VKMD_ENSEMBLE_FAIL=1:600: rank 1's run returns
#      an error at step 600) stops the whole ensemble with a non-zero exit and
#      a message naming it on the other rank; every checkpoint is intact:
#      --restart from them finishes the run, equal byte for byte to (1);
#   3. a restart whose replica checkpoints are at different steps is refused
#      with a message naming both steps;
#   4. --demux (on the run of 1): temperature_<i>.dcd holds, frame for frame,
#      the frame of the replica that held temperature i during the steps that
#      led to it (replicas.csv), read back with MDTraj;
#   5. --multidir D0 D1: rank r runs D_r's own system.prmtop with outputs in
#      D_r; the same input in both gives the same energies (no seed offset), a
#      different number of directories than ranks is refused.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args mpi_restart "$@"
. "$src/mpi_lib.sh" && mpi_setup test_mpi_restart
ens=("${mpirun[@]}" -n 2 "$vkmd_mpi" ensemble "$src/data/ala2_vac.prmtop" --remd 300,330
  --report-every 100 --traj-every 100 --checkpoint-every 500 --minimize --precision mixed --seed 9)
files=(replicas.csv exchange.csv replica_0/checkpoint.chk replica_1/checkpoint.chk
  replica_0/traj.dcd replica_1/traj.dcd replica_0/remd_state.txt replica_1/remd_state.txt)
same_outputs() { # dir_a dir_b what
  local f diffs=0
  for f in "${files[@]}"; do
    cmp -s "$1/$f" "$2/$f" || { diffs=1; echo "    $f differs"; }
  done
  for r in 0 1; do # energy.csv without the measured ns_per_day column
    cmp -s <(cut -d, -f1-6 "$1/replica_$r/energy.csv") <(cut -d, -f1-6 "$2/replica_$r/energy.csv") ||
      { diffs=1; echo "    replica_$r/energy.csv differs"; }
  done
  [ $diffs = 0 ] && ok "$3: every output the same byte for byte" || bad "$3: outputs differ"
}

# 1. One go vs stop + restart.
"${ens[@]}" --steps 1000 --out "$scratch/a" --demux >"$scratch/a.log" 2>&1 || {
  cat "$scratch/a.log"
  cli_skip_without_device "$scratch/a.log" test_mpi_restart
  bad "1,000 steps in one go"
}
"${ens[@]}" --steps 500 --out "$scratch/b" >"$scratch/b.log" 2>&1 || bad "500 steps: $(tail -3 "$scratch/b.log")"
"${ens[@]}" --steps 1000 --out "$scratch/b" --restart >"$scratch/b2.log" 2>&1 ||
  bad "--restart to 1,000: $(tail -3 "$scratch/b2.log")"
grep -E "pair 0" "$scratch/a.log" "$scratch/b2.log"
same_outputs "$scratch/a" "$scratch/b" "500 + restart 500 vs 1,000"

# 2. A replica fails at step 600: all stop, checkpoints (step 500) intact.
VKMD_ENSEMBLE_FAIL=1:600 "${ens[@]}" --steps 1000 --out "$scratch/c" >"$scratch/c.log" 2>&1
rc=$?
cat "$scratch/c.log"
[ $rc != 0 ] && ok "a failed replica stops the ensemble (exit $rc)" || bad "exit 0 with a failed replica"
grep -q "rank 0: .*replica 1 (rank 1) failed before step 600" "$scratch/c.log" &&
  ok "rank 0 names the failed replica and the step" || bad "no message naming replica 1 on rank 0"
grep -q "^step 500$" <(grep -a "^step " "$scratch/c/replica_0/remd_state.txt") &&
  ok "exchange state kept at step 500" || bad "exchange state not at step 500"
"${ens[@]}" --steps 1000 --out "$scratch/c" --restart >"$scratch/c2.log" 2>&1 ||
  bad "--restart after the failure: $(tail -3 "$scratch/c2.log")"
same_outputs "$scratch/a" "$scratch/c" "failure at 600, restart from the step-500 checkpoints"

# 3. Checkpoints of different steps are refused.
"${ens[@]}" --steps 500 --out "$scratch/d" >/dev/null 2>&1
cp "$scratch/a/replica_1/checkpoint.chk" "$scratch/a/replica_1/remd_state.txt" "$scratch/d/replica_1/"
"${ens[@]}" --steps 1500 --out "$scratch/d" --restart >"$scratch/d.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "replica 1's checkpoint is at step 1000, replica 0's at step 500" "$scratch/d.log" &&
  ok "mixed checkpoint steps refused: $(grep -m1 step "$scratch/d.log")" ||
  bad "mixed checkpoint steps (exit $rc): $(cat "$scratch/d.log")"
# 4. The demultiplexed trajectories.
"$py" - "$scratch/a" "$src/data/ala2_vac.prmtop" <<'PY' && ok "--demux: each temperature's frames are those of the replica that held it" || bad "--demux"
import csv, sys
import mdtraj as md
import numpy as np
d, top = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(f"{d}/replicas.csv")))
rep = [md.load_dcd(f"{d}/replica_{r}/traj.dcd", top=top).xyz for r in range(2)]
tem = [md.load_dcd(f"{d}/temperature_{i}.dcd", top=top).xyz for i in range(2)]
swapped = 0
for k in range(len(rep[0])):
    step = (k + 1) * 100
    row = next(r for r in rows if int(r["step"]) >= step)
    for r in range(2):
        i = int(row[f"t_index_{r}"])
        swapped += i != r
        if not np.array_equal(tem[i][k], rep[r][k]):
            sys.exit(f"frame {k} (step {step}): temperature {i} is not replica {r}'s")
print(f"  {len(rep[0])} frames per temperature, {swapped // 2} of them from swapped replicas")
sys.exit(0 if swapped else "no frame from a swapped replica: nothing tested")
PY
# 5. Independent systems, one directory each.
for r in 0 1; do
  mkdir -p "$scratch/m$r" && cp "$src/data/ala2_vac.prmtop" "$scratch/m$r/system.prmtop" &&
    cp "$src/data/ala2_vac.inpcrd" "$scratch/m$r/system.inpcrd"
done
"${mpirun[@]}" -n 2 "$vkmd_mpi" ensemble system.prmtop --steps 300 --report-every 100 --precision mixed \
  --out "$scratch/msum" --multidir "$scratch/m0" "$scratch/m1" >"$scratch/m.log" 2>&1 ||
  bad "--multidir run: $(tail -3 "$scratch/m.log")"
[ -s "$scratch/m0/energy.csv" ] && [ -s "$scratch/m1/checkpoint.chk" ] && [ -s "$scratch/msum/ensemble.json" ] &&
  cmp -s <(grep -v '^#' "$scratch/m0/energy.csv" | cut -d, -f1-6) \
    <(grep -v '^#' "$scratch/m1/energy.csv" | cut -d, -f1-6) &&
  ok "--multidir: outputs in each directory, the same input giving the same energies" || bad "--multidir outputs"
"${mpirun[@]}" -n 2 "$vkmd_mpi" ensemble system.prmtop --steps 300 --out "$scratch/msum" \
  --multidir "$scratch/m0" >"$scratch/m2.log" 2>&1 && bad "--multidir with 1 directory for 2 ranks accepted" ||
  { grep -q "1 directories for 2 ranks" "$scratch/m2.log" && ok "--multidir count refused: $(grep -m1 directories "$scratch/m2.log")" || bad "no message for the --multidir count"; }
cli_finish test_mpi_restart
