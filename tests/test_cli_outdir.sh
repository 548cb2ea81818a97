#!/usr/bin/env bash
# No run overwrites another's results (engine/io/outdir.h), on short
# water:216 runs:
#   1. a second `vkmd run --out DIR` over a finished run is refused, naming
#      the files, and leaves them untouched; with --overwrite each is moved
#      aside to NAME.1, then NAME.2, and the new run writes its own;
#      --restart continues into DIR;
#   2. a run into a DIR that a running run holds (DIR/.vkmd.lock) is refused
#      naming that process; the lock goes when the run ends;
#   3. the lock of a process that is gone (killed) is taken over, with a note.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_outdir "$@"
opts=(--no-window --steps 20 --report-every 10 --seed 5)
d=$scratch/out

"$vkmd" run water:216 "${opts[@]}" --out "$d" >"$scratch/1.log" 2>&1 || bad "first run: $(tail -3 "$scratch/1.log")"
cli_skip_without_device "$scratch/1.log" test_cli_outdir
[ ! -e "$d/.vkmd.lock" ] && ok "no lock left after the run" || bad "lock left behind"
sum=$(md5sum "$d/traj.dcd" "$d/energy.csv" | cut -c1-32)

# 1. Refusal, backups, restart.
if "$vkmd" run water:216 "${opts[@]}" --out "$d" >"$scratch/2.log" 2>&1; then
  bad "a second run over the outputs was accepted"
elif grep -q "holds a previous run's outputs (energy.csv, traj.dcd, final.pdb, checkpoint.chk)" "$scratch/2.log"; then
  ok "refused: $(tail -1 "$scratch/2.log")"
else bad "refusal message: $(tail -2 "$scratch/2.log")"; fi
[ "$(md5sum "$d/traj.dcd" "$d/energy.csv" | cut -c1-32)" = "$sum" ] && ok "the outputs are untouched" ||
  bad "the refused run changed the outputs"
for n in 1 2; do
  "$vkmd" run water:216 "${opts[@]}" --out "$d" --overwrite >"$scratch/o$n.log" 2>&1 ||
    bad "--overwrite $n: $(tail -3 "$scratch/o$n.log")"
  [ -f "$d/traj.dcd.$n" ] && [ -f "$d/energy.csv.$n" ] && [ -f "$d/checkpoint.chk.$n" ] &&
    [ -f "$d/traj.dcd" ] && grep -q "moved aside traj.dcd -> traj.dcd.$n" "$scratch/o$n.log" &&
    ok "--overwrite #$n: the earlier files moved aside to NAME.$n" || bad "--overwrite #$n: $(ls "$d")"
done
[ "$(md5sum "$d/traj.dcd.1" "$d/energy.csv.1" | cut -c1-32)" = "$sum" ] && ok "NAME.1 holds the first run's files" ||
  bad "NAME.1 differs from the first run's files"
"$vkmd" run water:216 --no-window --steps 40 --report-every 10 --seed 5 --out "$d" \
  --restart "$d/checkpoint.chk" >"$scratch/r.log" 2>&1 && ok "--restart continues into DIR" ||
  bad "--restart: $(tail -3 "$scratch/r.log")"

# 2. The lock: a second run while the first runs.
l=$scratch/locked
"$vkmd" run water:216 --no-window --steps 1000000 --report-every 10 --out "$l" >"$scratch/l1.log" 2>&1 &
pid=$!
for _ in $(seq 1 3000); do
  [ -f "$l/energy.csv" ] && grep -q '^10,' "$l/energy.csv" && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.02
done
if "$vkmd" run water:216 "${opts[@]}" --out "$l" --overwrite >"$scratch/l2.log" 2>&1; then
  bad "a concurrent run into the same DIR was accepted"
elif grep -q "in use by another run, process $pid" "$scratch/l2.log"; then
  ok "concurrent start refused: $(tail -1 "$scratch/l2.log")"
else bad "concurrent start: $(tail -2 "$scratch/l2.log")"; fi
kill -TERM $pid
wait $pid
[ ! -e "$l/.vkmd.lock" ] && ok "the stopped run released its lock" || bad "lock left by the stopped run"

# 3. A stale lock (its process is gone).
s=$scratch/stale
mkdir -p "$s"
sh -c 'echo $$' >"$s/.vkmd.lock" # a process that has exited
dead=$(cat "$s/.vkmd.lock")
if "$vkmd" run water:216 "${opts[@]}" --out "$s" >"$scratch/s.log" 2>&1 &&
  grep -q "took over the stale lock of process $dead (not running)" "$scratch/s.log"; then
  ok "stale lock taken over: $(grep -m1 'stale' "$scratch/s.log")"
else bad "stale lock: $(tail -2 "$scratch/s.log")"; fi

cli_finish test_cli_outdir
