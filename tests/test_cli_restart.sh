#!/usr/bin/env bash
# Runs that lose nothing (`vkmd run` checkpoints, restarts and faults), on
# water:216 headless:
#   1. a run killed with SIGINT mid-way stops at its next report with exit
#      130 and a checkpoint; --restart finishes it; traj.dcd, final.pdb and
#      energy.csv (every column but the measured ns_per_day) equal those of
#      the uninterrupted run byte for byte;
#   2. corrupt, truncated, foreign and mismatched checkpoints are refused by
#      --restart with a clear message and a non-zero exit;
#   3. a run that blows up (10 fs steps from an unminimised box) stops with a
#      message naming the step, the term and the atoms, exit 3; no output
#      holds a NaN or Inf, and its checkpoint is the last good state.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_restart "$@"
steps=600 kill_at=200
[ "${VKMD_TEST_QUICK:-0}" = 1 ] && steps=300 kill_at=100
opts=(--no-window --steps $steps --report-every 50 --traj-every 25 --checkpoint-every 100 --seed 3)

# 1. Uninterrupted, then interrupted + restarted.
"$vkmd" run water:216 "${opts[@]}" --out "$scratch/a" >"$scratch/a.log" 2>&1 ||
  bad "uninterrupted run: $(tail -3 "$scratch/a.log")"
"$vkmd" run water:216 "${opts[@]}" --out "$scratch/b" >"$scratch/b.log" 2>&1 &
pid=$!
# Wait until the run has reported step kill_at, then interrupt it.
for _ in $(seq 1 6000); do
  if [ -f "$scratch/b/energy.csv" ] && grep -q "^$kill_at," "$scratch/b/energy.csv"; then break; fi
  kill -0 $pid 2>/dev/null || break
  sleep 0.02
done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
if [ $rc = 130 ]; then ok "SIGINT: exit 130"; else bad "SIGINT: exit $rc, expected 130: $(tail -3 "$scratch/b.log")"; fi
grep -q "stopped by SIGINT" "$scratch/b.log" && ok "SIGINT message: $(grep 'stopped by' "$scratch/b.log")" ||
  bad "no stop message"
last=$(grep -v '^#' "$scratch/b/energy.csv" | tail -1 | cut -d, -f1)
echo "  interrupted run stopped at step $last of $steps"
[ "$last" -lt "$steps" ] && ok "stopped mid-way" || bad "the run was not interrupted (it ended at $last)"
[ -f "$scratch/b/checkpoint.chk" ] && [ ! -e "$scratch/b/checkpoint.chk.tmp" ] &&
  ok "checkpoint written, no temporary left" || bad "no checkpoint"
if "$vkmd" run water:216 "${opts[@]}" --out "$scratch/b" --restart "$scratch/b/checkpoint.chk" \
  >"$scratch/b2.log" 2>&1; then ok "--restart finishes the run"; else bad "restart: $(tail -3 "$scratch/b2.log")"; fi
cmp -s "$scratch/a/traj.dcd" "$scratch/b/traj.dcd" && ok "traj.dcd identical to the uninterrupted run" ||
  bad "traj.dcd differs"
cmp -s "$scratch/a/final.pdb" "$scratch/b/final.pdb" && ok "final.pdb identical" || bad "final.pdb differs"
if diff <(cut -d, -f1-6 "$scratch/a/energy.csv") <(cut -d, -f1-6 "$scratch/b/energy.csv") >/dev/null; then
  ok "energy.csv identical but for ns_per_day ($(grep -vc '^#' "$scratch/b/energy.csv") lines)"
else bad "energy.csv differs"; fi

# 1b. A checkpoint as the start of a new run (--coords FILE.chk: positions,
# velocities and box; new settings allowed): its step-0 row has the kinetic
# energy of the last row of the run that wrote it exactly, and its potential
# to 1e-6 relative (molecules are re-wrapped into the box on upload, which
# rounds).
if "$vkmd" run water:216 --no-window --steps 50 --report-every 50 --seed 9 \
  --coords "$scratch/a/checkpoint.chk" --out "$scratch/s" >"$scratch/s.log" 2>&1; then
  ok "--coords FILE.chk starts a run"
else bad "--coords FILE.chk: $(tail -3 "$scratch/s.log")"; fi
end_row=$(grep -v '^#' "$scratch/a/energy.csv" | grep "^$steps," | cut -d, -f3,4)
start_row=$(grep -v '^#' "$scratch/s/energy.csv" | grep '^0,' | cut -d, -f3,4)
if [ -n "$end_row" ] && $py - "$end_row" "$start_row" <<'PY'; then
import sys
(pa, ka), (pb, kb) = (map(float, a.split(",")) for a in sys.argv[1:3])
assert ka == kb, (ka, kb)
assert abs(pa - pb) <= 1e-6 * abs(pa), (pa, pb)
PY
  ok "the new run starts from the checkpoint's state (potential, kinetic: $end_row / $start_row)"
else bad "start row '$start_row' differs from the checkpoint's row '$end_row'"; fi

# 2. Bad checkpoints.
ck=$scratch/a/checkpoint.chk
refuse() { # what expected-text checkpoint extra-args...
  local what=$1 want=$2 file=$3
  shift 3
  if "$vkmd" run "${1:-water:216}" "${opts[@]}" "${@:2}" --out "$scratch/c" --restart "$file" \
    >"$scratch/c.log" 2>&1; then
    bad "$what accepted"
  elif grep -q "$want" "$scratch/c.log"; then
    ok "$what refused: $(grep -m1 'vkmd run' "$scratch/c.log")"
  else bad "$what: unexpected message: $(cat "$scratch/c.log")"; fi
}
mkdir -p "$scratch/c"
cp "$scratch/a/energy.csv" "$scratch/a/traj.dcd" "$scratch/c/"
head -c 1000 "$ck" >"$scratch/trunc.chk"
refuse "truncated checkpoint" "truncated" "$scratch/trunc.chk"
cp "$ck" "$scratch/flip.chk"
printf '\x55' | dd of="$scratch/flip.chk" bs=1 seek=5000 conv=notrunc status=none
refuse "corrupt checkpoint" "checksum" "$scratch/flip.chk"
printf 'not a checkpoint at all, just some text that is longer than the header\n' >"$scratch/text.chk"
refuse "a text file" "not a vkmd checkpoint" "$scratch/text.chk"
refuse "checkpoint of another system" "checkpoint of a system with 648 atoms" "$ck" water:215
refuse "checkpoint with other settings" "written with dt_fs 2" "$ck" water:216 --dt 1
refuse "missing checkpoint" "cannot open" "$scratch/none.chk"

# 3. A run that blows up.
"$vkmd" run water:216 --no-window --dt 10 --steps 2000 --report-every 20 --checkpoint-every 20 \
  --out "$scratch/d" >"$scratch/d.log" 2>&1
rc=$?
[ $rc = 3 ] && ok "blow-up: exit 3" || bad "blow-up: exit $rc: $(tail -3 "$scratch/d.log")"
if grep -q "blew up at step [0-9]*: .*term.*atom [0-9]* (" "$scratch/d.log"; then
  ok "blow-up message: $(grep -m1 'blew up' "$scratch/d.log" | cut -c1-400)"
else bad "blow-up message: $(cat "$scratch/d.log")"; fi
if grep -qil 'nan\|inf' "$scratch/d/energy.csv"; then bad "NaN/Inf in energy.csv"; else ok "no NaN/Inf in energy.csv"; fi
[ ! -e "$scratch/d/final.pdb" ] && ok "no final.pdb from a blown-up run" || bad "final.pdb written"
if $py - "$scratch/d/traj.dcd" "$scratch/d/checkpoint.chk" <<'PY'; then ok "traj.dcd finite; checkpoint valid and finite"; else bad "DCD or checkpoint"; fi
import math, struct, sys
data = open(sys.argv[1], "rb").read()
floats = 0
off = 0
# Walk the Fortran records: every float in a 4-byte-per-value record must be finite.
while off < len(data):
    (n,) = struct.unpack_from("<i", data, off)
    rec = data[off + 4: off + 4 + n]
    if off > 0 and n % 4 == 0 and n != 48:
        for (x,) in struct.iter_unpack("<f", rec):
            assert math.isfinite(x), "non-finite coordinate"
            floats += 1
    off += n + 8
assert floats > 0
ck = open(sys.argv[2], "rb").read()
assert ck[:8] == b"VKMDCHK\0", ck[:8]
(payload,) = struct.unpack_from("<Q", ck, 16)
assert payload == len(ck) - 40
# f64 arrays at the end (version 2: before the 100-byte barostat tail,
# io/checkpoint.h): positions and velocities, all finite.
(version,) = struct.unpack_from("<I", ck, 8)
tail = 100 if version >= 2 else 0
(natoms,) = struct.unpack_from("<i", ck, 40)
vals = struct.unpack_from("<%dd" % (6 * natoms), ck, len(ck) - tail - 48 * natoms)
assert all(math.isfinite(v) for v in vals)
print("  DCD floats checked:", floats, "; checkpoint atoms:", natoms)
PY

cli_finish test_cli_restart
