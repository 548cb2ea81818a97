#!/usr/bin/env bash
# A stop request in `vkmd-mpi ensemble` (2 ranks, temperature exchange on
# alanine dipeptide in vacuum): SIGTERM to rank 1 alone, as a scheduler may
# deliver it, at a seeded moment after step 100; every rank must stop at
# the same step (the next round shares the request), each replica's
# checkpoint and exchange state at that step, within 5 s (the time is
# printed), mpirun exiting 143 with one stop line; --restart continues.
# Then `vkmd-mpi uff scan` stopped by SIGTERM writes its JSON with the
# unscanned record marked "not scanned".
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args mpi_stop "$@"
. "$src/mpi_lib.sh" && mpi_setup test_mpi_stop
RANDOM=${VKMD_STOP_SEED:-1}
d=$scratch/ens
ens=("${mpirun[@]}" -n 2 "$vkmd_mpi" ensemble "$src/data/ala2_vac.prmtop" --remd 300,330
  --report-every 100 --seed 9 --out "$d")
"${ens[@]}" --steps 1000000 >"$scratch/ens.log" 2>&1 &
m=$!
for _ in $(seq 1 3000); do
  grep -q '^100,' "$d/replica_1/energy.csv" 2>/dev/null && break
  kill -0 $m 2>/dev/null || break
  sleep 0.02
done
if ! kill -0 $m 2>/dev/null; then
  wait $m
  cli_skip_without_device "$scratch/ens.log" test_mpi_stop
  bad "the ensemble ended before the signal: $(tail -3 "$scratch/ens.log")"
fi
sleep "$(printf '0.%03d' $((RANDOM % 500)))"
ranks=($(pgrep -P $m))
[ ${#ranks[@]} = 2 ] || bad "expected 2 rank processes under mpirun, found: ${ranks[*]}"
t0=$(date +%s%N)
kill -TERM "${ranks[1]}"
wait $m
rc=$?
dt_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "  SIGTERM to rank 1; mpirun exited $rc after $dt_ms ms"
[ $dt_ms -le 5000 ] && ok "exit within 5 s of SIGTERM ($dt_ms ms)" || bad "$dt_ms ms after SIGTERM"
[ $rc = 143 ] && ok "exit 143" || bad "exit $rc: $(tail -3 "$scratch/ens.log")"
line=$(grep -m1 'vkmd-mpi ensemble: stopped by SIGTERM at step' "$scratch/ens.log")
[ -n "$line" ] && ok "$line" || bad "no stop line: $(tail -5 "$scratch/ens.log")"
s0=$(awk '$1 == "step" {print $2}' "$d/replica_0/remd_state.txt")
s1=$(awk '$1 == "step" {print $2}' "$d/replica_1/remd_state.txt")
[ -n "$s0" ] && [ "$s0" = "$s1" ] && [ "$(tail -n1 "$d/replica_0/energy.csv" | cut -d, -f1)" = "$s0" ] &&
  [ "$(tail -n1 "$d/replica_1/energy.csv" | cut -d, -f1)" = "$s0" ] &&
  ok "both replicas stopped and checkpointed at step $s0" || bad "replicas at steps '$s0' and '$s1'"
if "${ens[@]}" --steps $((s0 + 100)) --restart >"$scratch/restart.log" 2>&1; then
  ok "--restart continues to step $((s0 + 100))"
else bad "--restart: $(tail -3 "$scratch/restart.log")"; fi
# vkmd-mpi uff scan: SIGTERM to both ranks while they load or scan (one
# record of 160,000 conformations, all on rank 0, one replica per
# dispatch): mpirun exits 143 within 5 s with one stop line, and the JSON is
# written, the record unscanned marked "not scanned".
# About 10 s of scanning on 2 ranks either way, so the signal at 1-3 s finds
# them working: 40,000 took 3.1-3.4 s in all (start-up included) on a
# quicker machine than before, where the signal came after the end.
nconf=160000
[ "${VKMD_TEST_QUICK:-0}" = 1 ] && nconf=40000 # the sanitizer build: 7.1 s for 40,000
/usr/bin/python3 - "$scratch/confs.xyz" $nconf <<'PY' || bad "could not write the conformations"
import random, sys
atoms = [("O", 0.8477, -0.5094, -0.0433), ("C", -0.4666, -0.0602, 0.0396),
         ("O", -0.6958, 1.1749, -0.0329), ("H", 1.5921, 0.1602, -0.1278), ("H", -1.2774, -0.7655, 0.1644)]
random.seed(7)
with open(sys.argv[1], "w") as f:
    for k in range(int(sys.argv[-1])):
        f.write("5\nformic acid %d\n" % (k + 1))
        for el, *x in atoms:
            f.write("%s %.5f %.5f %.5f\n" % (el, *(c + random.uniform(-0.05, 0.05) for c in x)))
PY
"${mpirun[@]}" -n 2 "$vkmd_mpi" uff scan "$scratch/confs.xyz" --replicas 1 --out "$scratch/scan.json" \
  >"$scratch/scan.log" 2>&1 &
m=$!
sleep "$(printf '%d.%03d' $((1 + RANDOM % 2)) $((RANDOM % 1000)))"
ranks=($(pgrep -P $m))
kill -0 $m 2>/dev/null && [ ${#ranks[@]} = 2 ] || bad "uff scan: not running 2 ranks at the signal"
t0=$(date +%s%N)
kill -TERM "${ranks[@]}"
wait $m
rc=$?
dt_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "  vkmd-mpi uff scan: SIGTERM to both ranks; mpirun exited $rc after $dt_ms ms"
[ $dt_ms -le 5000 ] && ok "uff scan: exit within 5 s of SIGTERM ($dt_ms ms)" || bad "$dt_ms ms"
[ $rc = 143 ] && ok "uff scan: exit 143" || bad "uff scan: exit $rc: $(tail -3 "$scratch/scan.log")"
line=$(grep -m1 'vkmd-mpi uff scan: stopped by SIGTERM: 1 molecule(s) not scanned' "$scratch/scan.log")
[ -n "$line" ] && ok "$line" || bad "uff scan: no stop line: $(tail -5 "$scratch/scan.log")"
/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["records"]
assert len(r) == 1 and "not scanned: the screen was stopped by SIGTERM" in r[0]["error"], r
' "$scratch/scan.json" && ok "uff scan: the JSON written, the record marked not scanned" ||
  bad "uff scan: JSON $(head -c 300 "$scratch/scan.json")"

cli_finish test_mpi_stop
