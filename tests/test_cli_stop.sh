#!/usr/bin/env bash
# A stop request is honoured in every phase (engine/core/stop.h): SIGTERM
# and, separately, SIGINT at seeded random moments of each phase of
# `vkmd run` on water:216 (production dynamics, the minimisation, the
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
steps=400
opts=(--no-window --steps $steps --report-every 50 --traj-every 25 --seed 3)

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

# 1. Production dynamics: the uninterrupted run, then each signal mid-run
# and --restart from its checkpoint.
"$vkmd" run water:216 "${opts[@]}" --out "$scratch/a" >"$scratch/a.log" 2>&1 ||
  bad "uninterrupted run: $(tail -3 "$scratch/a.log")"
cli_skip_without_device "$scratch/a.log" test_cli_stop
for sig in TERM INT; do
  code=143
  [ $sig = INT ] && code=130
  d=$scratch/md_$sig
  start md_$sig run water:216 "${opts[@]}" --out "$d"
  wait_for "$d/energy.csv" '^50,' || bad "md $sig: no report at step 50: $(tail -3 "$scratch/md_$sig.log")"
  signal_and_check md_$sig $sig 1500 $code "stopped by SIG$sig at step"
  ck=$(grep -o 'checkpoint [^ ]* is at step [0-9]*' "$scratch/md_$sig.log" | awk '{print $NF}')
  echo "  md $sig: checkpoint at step ${ck:-?}"
  if "$vkmd" run water:216 "${opts[@]}" --out "$d" --restart "$d/checkpoint.chk" >"$d.restart.log" 2>&1; then
    ok "md $sig: --restart from step $ck finishes"
  else bad "md $sig: restart: $(tail -3 "$d.restart.log")"; fi
  cmp -s "$scratch/a/traj.dcd" "$d/traj.dcd" && cmp -s "$scratch/a/final.pdb" "$d/final.pdb" &&
    diff <(cut -d, -f1-6 "$scratch/a/energy.csv") <(cut -d, -f1-6 "$d/energy.csv") >/dev/null &&
    ok "md $sig: traj.dcd, final.pdb, energy.csv bitwise the uninterrupted run's" ||
    bad "md $sig: the continued run differs from the uninterrupted one"
done

# 2. The minimisation (a tolerance it never reaches) and 3. the --equilibrate
# steps: the state written loads with --coords.
for sig in TERM INT; do
  code=143
  [ $sig = INT ] && code=130
  d=$scratch/min_$sig
  start min_$sig run water:216 --no-window --minimize --min-tol 1e-6 --min-iterations 1000000 \
    --steps 10 --out "$d"
  wait_for "$scratch/min_$sig.log" 'step: ' || bad "min $sig: no set-up line"
  signal_and_check min_$sig $sig 2000 $code "minimisation stopped by SIG$sig"
  d2=$scratch/eq_$sig
  start eq_$sig run water:216 --no-window --equilibrate 100000 --steps 10 --out "$d2"
  wait_for "$scratch/eq_$sig.log" 'step: ' || bad "eq $sig: no set-up line"
  signal_and_check eq_$sig $sig 2000 $code "equilibration stopped by SIG$sig"
done
for f in min_TERM/minimized.rst7 eq_INT/equilibration.rst7; do
  if "$vkmd" run water:216 --no-window --coords "$scratch/$f" --steps 10 --report-every 10 \
    --out "$scratch/from_$(dirname $f)" >"$scratch/from.log" 2>&1; then
    ok "$f starts a run with --coords"
  else bad "$f: $(tail -3 "$scratch/from.log")"; fi
done

# 4. A second signal kills at once: SIGTERM, then SIGINT straight after
# (two of one signal could merge while the first is pending): killed by the
# signal, no stop line.
start twice run water:216 --no-window --steps 1000000 --out "$scratch/twice"
wait_for "$scratch/twice/energy.csv" '^0,' || bad "twice: no start"
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
