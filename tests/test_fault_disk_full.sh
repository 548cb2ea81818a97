#!/usr/bin/env bash
# A full disk loses nothing. `vkmd run` under a file-size limit (ulimit -f,
# RLIMIT_FSIZE, with SIGXFSZ ignored so that a write past it fails with EFBIG
# as on a full disk) until one output's write fails:
#   1. traj.dcd (tiny.prmtop, a frame every 5 steps, 3 kB);
#   2. energy.csv (tiny.prmtop, a row every 5 steps, no trajectory, 3 kB);
#   3. checkpoint.chk (water:216, 31 kB a checkpoint, 24 kB limit, on a
#      --restart from step 40).
# Each time: a message naming the file, a non-zero exit, the previous
# checkpoint loads (3: byte for byte the one before), and a --restart without
# the limit finishes the run bitwise equal to an uninterrupted one.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args fault_disk_full "$@"
. "$(dirname "$0")/fault_lib.sh"
tiny=$src/data/tiny.prmtop
common=(--no-window --steps 200 --checkpoint-every 20 --seed 3 --precision single)

limited() { # kB, then vkmd's arguments
  local kb=$1
  shift
  (
    trap '' XFSZ
    ulimit -f "$kb"
    exec "$vkmd" "$@"
  )
}

# full what file kB baseline-dir out-dir vkmd-run-args...: runs the limited
# run, checks the stop, the checkpoint and the restart.
full() {
  local what=$1 file=$2 kb=$3 base=$4 out=$5
  shift 5
  limited "$kb" run "$@" --out "$out" >"$out.log" 2>&1
  local rc=$?
  [ $rc != 0 ] && ok "$what: exit $rc" || bad "$what: exit 0 under a $kb kB limit"
  if grep -q "$file.*File too large" "$out.log"; then
    ok "$what: message: $(grep -m1 'File too large' "$out.log")"
  else bad "$what: no message naming $file: $(tail -3 "$out.log")"; fi
  local step
  step=$(ck_loads "$out/checkpoint.chk") && ok "$what: the checkpoint loads (step $step)" ||
    bad "$what: the checkpoint does not load"
  [ ! -e "$out/checkpoint.chk.tmp" ] && ok "$what: no temporary checkpoint left" || bad "$what: checkpoint.chk.tmp left"
  if "$vkmd" run "$@" --out "$out" --restart "$out/checkpoint.chk" >"$out.restart.log" 2>&1; then
    ok "$what: --restart finishes the run"
  else bad "$what: restart: $(tail -3 "$out.restart.log")"; fi
  same_run "$base" "$out" "$what + restart"
}

# 1. traj.dcd.
opts1=("$tiny" "${common[@]}" --report-every 10 --traj-every 5)
"$vkmd" run "${opts1[@]}" --out "$scratch/a1" >"$scratch/a1.log" 2>&1 ||
  { cli_skip_without_device "$scratch/a1.log" test_fault_disk_full; bad "run 1: $(tail -3 "$scratch/a1.log")"; }
full "traj.dcd full" traj.dcd 3 "$scratch/a1" "$scratch/b1" "${opts1[@]}"

# 2. energy.csv.
opts2=("$tiny" "${common[@]}" --report-every 5 --traj-every 0)
"$vkmd" run "${opts2[@]}" --out "$scratch/a2" >"$scratch/a2.log" 2>&1 || bad "run 2: $(tail -3 "$scratch/a2.log")"
full "energy.csv full" energy.csv 3 "$scratch/a2" "$scratch/b2" "${opts2[@]}"

# 3. checkpoint.chk: 40 steps, then a restart to 200 under the limit.
opts3=(water:216 "${common[@]}" --report-every 10 --traj-every 0)
"$vkmd" run "${opts3[@]}" --out "$scratch/a3" >"$scratch/a3.log" 2>&1 || bad "run 3: $(tail -3 "$scratch/a3.log")"
"$vkmd" run "${opts3[@]}" --steps 40 --out "$scratch/b3" >"$scratch/b3.first.log" 2>&1 || bad "run 3, 40 steps"
cp "$scratch/b3/checkpoint.chk" "$scratch/b3.chk"
limited 24 run "${opts3[@]}" --out "$scratch/b3" --restart "$scratch/b3/checkpoint.chk" >"$scratch/b3.log" 2>&1
rc=$?
[ $rc != 0 ] && ok "checkpoint.chk full: exit $rc" || bad "checkpoint.chk full: exit 0"
if grep -q "checkpoint.chk.tmp.*File too large" "$scratch/b3.log"; then
  ok "checkpoint.chk full: message: $(grep -m1 'File too large' "$scratch/b3.log")"
else bad "checkpoint.chk full: no message naming the checkpoint: $(tail -3 "$scratch/b3.log")"; fi
cmp -s "$scratch/b3.chk" "$scratch/b3/checkpoint.chk" && ck_loads "$scratch/b3/checkpoint.chk" >/dev/null &&
  ok "checkpoint.chk full: the previous checkpoint (step 40) is untouched and loads" ||
  bad "checkpoint.chk full: the previous checkpoint changed"
[ ! -e "$scratch/b3/checkpoint.chk.tmp" ] && ok "checkpoint.chk full: no temporary left" || bad "checkpoint.chk.tmp left"
if "$vkmd" run "${opts3[@]}" --out "$scratch/b3" --restart "$scratch/b3/checkpoint.chk" >"$scratch/b3.restart.log" 2>&1; then
  ok "checkpoint.chk full: --restart finishes the run"
else bad "checkpoint.chk full: restart: $(tail -3 "$scratch/b3.restart.log")"; fi
same_run "$scratch/a3" "$scratch/b3" "checkpoint.chk full + restart"

cli_finish test_fault_disk_full
