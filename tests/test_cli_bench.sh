#!/bin/bash
# `vkmd bench --forces` and `vkmd bench --uff` run end to end on the device,
# print their table, and write JSON with every documented field filled (no
# timing is asserted: speed is reported, not tested).
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_bench "$@"

if ! "$vkmd" bench --forces --systems water:216 --repeat 2 --json "$scratch/f.json" >"$scratch/f.txt" 2>"$scratch/f.err"; then
    cat "$scratch/f.err"
    cli_skip_without_device "$scratch/f.err" test_cli_bench
    err "bench --forces failed"
fi
cat "$scratch/f.txt"
$py - "$scratch/f.json" <<'PY' || err "bench --forces JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["units"]["time"] == "ms"
for k in ("name", "vendor", "driver_info", "vulkan"):
    assert d["device"][k], k
s = d["systems"][0]
assert s["system"] == "water:216" and s["atoms"] == 648
assert s["eval_ms"] > 0 and s["eval_with_rebuild_ms"] > 0 and s["wall_ms_per_eval"] > 0
passes = ("neighbor", "nonbonded", "bonded", "pme_spread", "pme_fft", "pme_convolve", "pme_gather")
assert all(s["passes_ms"][p] > 0 for p in passes), s["passes_ms"]
assert abs(sum(s["passes_ms"].values()) - s["eval_ms"]) < 1e-6 * s["eval_ms"] + 1e-9
print("  bench --forces JSON: every field filled")
PY

# Every LJ precision side by side, each with its force error against the
# double reference: fp32 and the fp16 forms beyond 5 A within 1e-4, the
# all-pairs fp16 forms worse than fp32 (the path really ran in fp16).
if "$vkmd" bench --forces --systems water:216 --repeat 1 --nonbonded all --json "$scratch/a.json" \
    >"$scratch/a.txt" 2>"$scratch/a.err"; then
    cat "$scratch/a.txt"
    $py - "$scratch/a.json" <<'PY' || err "bench --forces --nonbonded all JSON"
import json, sys
rows = json.load(open(sys.argv[1]))["systems"]
got = [(r["lj_precision"], r["lj_fp16_min_r_a"]) for r in rows]
assert got == [("fp32", 0), ("fp16", 0), ("fp16-powers", 0), ("fp16", 5), ("fp16-powers", 5)], got
e = {(r["lj_precision"], r["lj_fp16_min_r_a"]): r["force_rms_rel_vs_reference"] for r in rows}
assert e[("fp32", 0)] < 1e-5 and e[("fp16", 5)] < 1e-4 and e[("fp16-powers", 5)] < 1e-4, e
assert e[("fp16", 0)] > 10 * e[("fp32", 0)] and e[("fp16-powers", 0)] > 10 * e[("fp32", 0)], e
print("  bench --nonbonded all: force RMS errors " + ", ".join("%s:%g %.2e" % (k[0], k[1], v) for k, v in e.items()))
PY
else
    cat "$scratch/a.err"; err "bench --forces --nonbonded all failed"
fi

if ! "$vkmd" bench --uff --replicas 1,10 --repeat 2 --json "$scratch/u.json" >"$scratch/u.txt" 2>"$scratch/u.err"; then
    cat "$scratch/u.err"
    err "bench --uff failed"
fi
cat "$scratch/u.txt"
$py - "$scratch/u.json" <<'PY' || err "bench --uff JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["molecule"] == "xylitol" and d["cpu_reference_evals_per_s"] > 0
assert [r["replicas"] for r in d["runs"]] == [1, 10]
assert all(r["evals_per_s"] > 0 and r["gpu_ms_per_batch"] > 0 for r in d["runs"])
print("  bench --uff JSON: every field filled")
PY

if "$vkmd" bench --uff --relax --replicas 1 --repeat 1 --json "$scratch/r.json" >"$scratch/r.txt" 2>&1; then
    $py - "$scratch/r.json" <<'PY' || err "bench --uff --relax JSON"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert r["relax_converged"] == 1 and r["relax_max_steps"] > 0 and r["relaxations_per_s"] > 0, r
print("  bench --uff --relax: %d steps, %.2f relaxations/s" % (r["relax_max_steps"], r["relaxations_per_s"]))
PY
else
    cat "$scratch/r.txt"; err "bench --uff --relax failed"
fi

# A file of several molecules: one mixed batch, replicas cycling through the
# records, the relaxation reported by molecule size (16 atoms a bucket).
if "$vkmd" bench --uff --relax --molecule "$src/data/uff/molecules.sdf" --replicas 60 --repeat 1 \
    --json "$scratch/m.json" >"$scratch/m.txt" 2>&1; then
    $py - "$scratch/m.json" "$src/data/uff/molecules.sdf" <<'PY' || err "bench --uff --relax mixed JSON"
import json, sys
from rdkit import Chem
sizes = [m.GetNumAtoms() for m in Chem.SDMolSupplier(sys.argv[2], removeHs=False)]
r = json.load(open(sys.argv[1]))["runs"][0]
b = r["relax_by_atoms"]
want = {}
for k in range(60):  # replica k starts from record k mod 57
    lo = (sizes[k % len(sizes)] - 1) // 16 * 16 + 1
    want[lo] = want.get(lo, 0) + 1
got = {x["atoms_min"]: x["replicas"] for x in b}
assert got == want, (got, want)
assert sum(x["converged"] for x in b) == r["relax_converged"] == 60, r
assert all(x["atoms_max"] is None or x["atoms_max"] == x["atoms_min"] + 15 for x in b), b
assert sum(x["evaluations"] for x in b) == r["relax_evaluations"], r
print("  bench --uff --relax, 57 records: buckets %s, all converged" % got)
PY
    grep -q "records of .* molecules, one mixed batch" "$scratch/m.txt" || err "no mixed-batch line"
else
    cat "$scratch/m.txt"; err "bench --uff --relax on a file of molecules failed"
fi

"$vkmd" bench --forces --uff >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "bench --forces --uff should exit 2, got $rc"
"$vkmd" bench --dt 3 >/dev/null 2>&1; rc=$?
[ $rc -ne 0 ] || err "bench --dt 3 should fail"
"$vkmd" bench --uff --replicas 0 >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "--replicas 0 should exit 2, got $rc"

cli_finish test_cli_bench
