#!/usr/bin/env bash
# A run killed at any moment loses nothing. `vkmd run` on villin in vacuum
# (584 atoms, no PME, so a start is quick; 100 steps, a report, frame and
# checkpoint every 5 steps, so most moments of a run are near a write) is
# killed with SIGKILL at seeded random moments (VKMD_TEST_KILLS times,
# default 100; tests/CMakeLists.txt registers it twice): 4 in 5 a random
# 0-150 ms after it has written a new energy row (a write in flight), 1 in 5
# a random 0-1 s after its start (setup). After each kill the checkpoint on
# disk must load (header, size and checksum: old or new, never torn), and the
# next run continues from it with --restart. When a run of the chain reaches
# the end, its energy.csv, traj.dcd and final.pdb must equal an uninterrupted
# run's byte for byte, and a new chain starts. The validation layer is off
# here (startup is most of each try's time; every other test runs with it).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
size=${VKMD_TEST_KILLS:-100}
case "$size" in '' | *[!0-9]*) echo "FAIL VKMD_TEST_KILLS='$size' is not a count"; exit 1 ;; esac
# (each size its own scratch directory: ctest may run both at once)
. "$(dirname "$0")/cli_lib.sh" && cli_args "fault_kill_$size" "$@"
. "$(dirname "$0")/fault_lib.sh"
unset VKMD_VALIDATION
# 8 kills and one chain to the end run the restart paths (a checkpoint,
# energy.csv and traj.dcd cut off anywhere): test_fault_kill, in the
# everyday run and (VKMD_TEST_QUICK=1) the sanitizer build. 100 kills and
# three chains test that no moment tears a checkpoint: test_fault_kill_100,
# with the long statistics tests (label statistics, ./build.sh test
# --statistics).
want=$size
[ "${VKMD_TEST_QUICK:-0}" = 1 ] && want=8
want_chains=1
[ "$want" -ge 100 ] && want_chains=3
opts=("$src/data/villin_vac.prmtop" --no-window --steps 100 --report-every 5 --traj-every 5
  --checkpoint-every 5 --seed 3 --precision single)
RANDOM=21 # the kill moments are seeded

"$vkmd" run "${opts[@]}" --out "$scratch/a" >"$scratch/a.log" 2>&1 ||
  { cli_skip_without_device "$scratch/a.log" test_fault_kill; bad "uninterrupted run: $(tail -3 "$scratch/a.log")"; }

rows() { [ -f "$1" ] && grep -c . "$1" || echo 0; }
out=$scratch/b
kills=0 loaded=0 none=0 torn=0 chains=0 chain_kills=0 tries=0 failed=0
# Until both counts hold: `want` kills and 3 chains run to the end (on a
# loaded machine each try gets fewer steps in, so chains end later).
while { [ $kills -lt $want ] || [ $chains -lt $want_chains ]; } && [ $tries -lt $((want * 3 + 60)) ]; do
  tries=$((tries + 1))
  args=()
  [ -f "$out/checkpoint.chk" ] && args=(--restart "$out/checkpoint.chk")
  before=$(rows "$out/energy.csv")
  "$vkmd" run "${opts[@]}" --out "$out" "${args[@]}" >"$scratch/run.log" 2>&1 &
  pid=$!
  if [ $((RANDOM % 5)) = 0 ]; then
    sleep "$(printf '0.%03d' $((RANDOM % 1000)))"
  else
    # A new row (a restart first cuts the file back, then writes again).
    for _ in $(seq 1 1000); do
      kill -0 $pid 2>/dev/null || break
      now=$(rows "$out/energy.csv")
      [ "$now" -gt "$before" ] && [ -n "${args[*]}" -o "$now" -gt 6 ] && break
      sleep 0.01
    done
    sleep "$(printf '0.%03d' $((RANDOM % 150)))"
  fi
  kill -KILL $pid 2>/dev/null
  wait $pid
  rc=$?
  if [ $rc = 137 ]; then
    kills=$((kills + 1)) chain_kills=$((chain_kills + 1))
    if [ ! -e "$out/checkpoint.chk" ]; then
      none=$((none + 1)) # killed before the chain's first checkpoint
    elif ck_loads "$out/checkpoint.chk" >/dev/null 2>&1; then
      loaded=$((loaded + 1))
    else
      torn=$((torn + 1))
      bad "kill $kills: the checkpoint does not load"
      cp "$out/checkpoint.chk" "$scratch/torn_$kills.chk"
      rm -rf "$out"
    fi
  elif [ $rc = 0 ]; then
    chains=$((chains + 1))
    same_run "$scratch/a" "$out" "chain $chains ($chain_kills kills, then the end)" >"$scratch/same.log"
    grep -q FAIL "$scratch/same.log" && bad "$(cat "$scratch/same.log")"
    rm -rf "$out"
    chain_kills=0
  else
    failed=$((failed + 1))
    bad "try $tries: the run failed (exit $rc): $(tail -2 "$scratch/run.log")"
    rm -rf "$out"
  fi
done
echo "  $tries tries: $kills kills, $chains chains run to the end"
[ $kills -ge $want ] && ok "$kills SIGKILLs" || bad "only $kills kills in $tries tries"
[ $torn = 0 ] && ok "after every kill the checkpoint loaded ($loaded; $none before a chain's first checkpoint)" ||
  bad "$torn torn checkpoints"
[ $failed = 0 ] && ok "every restart from a killed run's checkpoint ran" || bad "$failed runs failed"
[ $chains -ge $want_chains ] && ok "$chains chains of killed runs ended bitwise equal to the uninterrupted run" ||
  bad "only $chains chains ended"
cli_finish test_fault_kill
