#!/usr/bin/env bash
# A stop request is honoured in every phase (engine/core/stop.h): SIGTERM
# or SIGINT at seeded random moments of each phase of `vkmd run` on
# water:216 (production dynamics, the minimisation, the
# --equilibrate steps). Each run must exit within 5 s of the signal (the
# time is printed; the design aims at 1 s), with exit 143 / 130, one line
# saying where it stopped and how to continue, and what it wrote must load:
# the dynamics' checkpoint continues with --restart bitwise to the
# uninterrupted run (traj.dcd, final.pdb, energy.csv but ns/day); a stopped
# minimisation's or equilibration's DIR/*.rst7 starts a run with --coords.
# A second signal kills at once (no message, no clean exit).
# VKMD_STOP_SEED (default 1) seeds the moments.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_stop "$@"
RANDOM=${VKMD_STOP_SEED:-1}
# The dynamics' 0-300 ms signal must land inside the run: 100 steps of
# water:216 ended 336 ms after their step-25 report on lavapipe once a
# batch summed energies only where read (ed0f942's parent), so 400.
steps=400
opts=(--no-window --steps $steps --report-every 25 --traj-every 25 --seed 3)

# Starts `vkmd ARGS` in the background, logging to $scratch/$1.log.
start() { # name args...
  local name=$1
  shift
  "$vkmd" "$@" >"$scratch/$name.log" 2>&1 &
  pid=$!
}
# Waits (at most 60 s) until file $1 exists and holds a line matching $2.
wait_for() { # file pattern
  for _ in $(seq 1 3000); do
    [ -f "$1" ] && grep -q "$2" "$1" && return 0
    kill -0 $pid 2>/dev/null || return 1
    sleep 0.02
  done
  return 1
}
# Sends signal $2 after a seeded random 0 .. $3 ms, then checks the exit:
# within 5 s, code $4, a stop line matching $5.
signal_and_check() { # name signal max_ms code pattern
  local name=$1 sig=$2 ms=$(( RANDOM % ($3 + 1) )) code=$4 pattern=$5
  sleep "$(printf '0.%03d' "$ms")"
  if ! kill -0 $pid 2>/dev/null; then bad "$name: the run ended before the $sig ($ms ms)"; wait $pid; return; fi
  local t0 t1 rc
  t0=$(date +%s%N)
  kill -$sig $pid
  wait $pid
  rc=$?
  t1=$(date +%s%N)
  local dt_ms=$(( (t1 - t0) / 1000000 ))
  echo "  $name: $sig $ms ms into the phase; exited $rc after $dt_ms ms"
  [ $dt_ms -le 5000 ] && ok "$name: exit within 5 s of $sig ($dt_ms ms)" || bad "$name: $dt_ms ms after $sig"
  [ $rc = "$code" ] && ok "$name: exit $rc" || bad "$name: exit $rc, expected $code: $(tail -3 "$scratch/$name.log")"
  if grep -q "$pattern" "$scratch/$name.log"; then ok "$name: $(grep -m1 "$pattern" "$scratch/$name.log")"
  else bad "$name: no line '$pattern': $(tail -3 "$scratch/$name.log")"; fi
}

# SIGINT and SIGTERM take the same path (core/stop.c); each phase is signalled
# once, SIGTERM in dynamics and equilibration, SIGINT in the minimisation.
# Every vkmd start costs seconds of pipeline building on lavapipe, so the
# phases share their runs, two at a time where they are independent, and
# each state written is loaded by the next run:
#   1. production dynamics, SIGTERM mid-run, beside the uninterrupted run;
#   2. --restart from that checkpoint (bitwise the uninterrupted run's
#      traj.dcd, final.pdb, energy.csv), beside the --equilibrate steps
#      under SIGTERM;
#   3. the minimisation (a tolerance it never reaches; from --coords the
#      stopped equilibration's state) under SIGINT;
#   4. a second signal kills at once, in a run from --coords the stopped
#      minimisation's state.
"$vkmd" run water:216 "${opts[@]}" --out "$scratch/a" >"$scratch/a.log" 2>&1 &
apid=$!
start md_TERM run water:216 "${opts[@]}" --out "$scratch/md_TERM"
if ! wait_for "$scratch/md_TERM/energy.csv" '^25,'; then
  wait $apid
  cli_skip_without_device "$scratch/a.log" test_cli_stop
  bad "md TERM: no report at step 25: $(tail -3 "$scratch/md_TERM.log")"
fi
signal_and_check md_TERM TERM 300 143 "stopped by SIGTERM at step"
wait $apid || bad "uninterrupted run: $(tail -3 "$scratch/a.log")"
checkpoint_named() { # name
  local ck
  ck=$(grep -o 'checkpoint [^ ]* is at step [0-9]*' "$scratch/$1.log" | awk '{print $NF}')
  [ -n "$ck" ] && [ -s "$scratch/$1/checkpoint.chk" ] && ok "$1: checkpoint.chk at step $ck" ||
    bad "$1: no checkpoint named"
}
checkpoint_named md_TERM

d=$scratch/md_TERM
"$vkmd" run water:216 "${opts[@]}" --out "$d" --restart "$d/checkpoint.chk" >"$d.restart.log" 2>&1 &
rpid=$!
start eq_TERM run water:216 --no-window --equilibrate 100000 --steps 10 --out "$scratch/eq_TERM"
wait_for "$scratch/eq_TERM.log" 'step: ' || bad "eq TERM: no set-up line"
signal_and_check eq_TERM TERM 500 143 "equilibration stopped by SIGTERM"
if wait $rpid; then ok "md TERM: --restart finishes"; else bad "md TERM: restart: $(tail -3 "$d.restart.log")"; fi
cmp -s "$scratch/a/traj.dcd" "$d/traj.dcd" && cmp -s "$scratch/a/final.pdb" "$d/final.pdb" &&
  diff <(cut -d, -f1-6 "$scratch/a/energy.csv") <(cut -d, -f1-6 "$d/energy.csv") >/dev/null &&
  ok "md TERM: traj.dcd, final.pdb, energy.csv bitwise the uninterrupted run's" ||
  bad "md TERM: the continued run differs from the uninterrupted one"

start min_INT run water:216 --no-window --coords "$scratch/eq_TERM/equilibration.rst7" --minimize \
  --min-tol 1e-6 --min-iterations 1000000 --steps 10 --out "$scratch/min_INT"
wait_for "$scratch/min_INT.log" 'step: ' && ok "eq_TERM/equilibration.rst7 starts a run with --coords" ||
  bad "min INT (from eq_TERM/equilibration.rst7): no set-up line: $(tail -3 "$scratch/min_INT.log")"
signal_and_check min_INT INT 500 130 "minimisation stopped by SIGINT"

# 4. A second signal kills at once: SIGTERM, then SIGINT straight after
# (two of one signal could merge while the first is pending): killed by the
# signal, no stop line.
start twice run water:216 --no-window --coords "$scratch/min_INT/minimized.rst7" --steps 1000000 \
  --out "$scratch/twice"
wait_for "$scratch/twice/energy.csv" '^0,' && ok "min_INT/minimized.rst7 starts a run with --coords" ||
  bad "twice (from min_INT/minimized.rst7): no start: $(tail -3 "$scratch/twice.log")"
t0=$(date +%s%N)
kill -TERM $pid
kill -INT $pid
wait $pid
rc=$?
dt_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ $rc -ge 129 ] && ! grep -q 'stopped by' "$scratch/twice.log"; then
  ok "a second signal kills at once (exit $rc after $dt_ms ms, no stop line)"
else bad "second signal: exit $rc after $dt_ms ms: $(tail -2 "$scratch/twice.log")"; fi

cli_finish test_cli_stop
