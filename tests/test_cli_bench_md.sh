#!/usr/bin/env bash
# `vkmd bench` MD suite on the device (water:216, both time steps): the table
# and a JSON result with every field filled (device, driver, Vulkan, vkmd
# version and commit, per run ns/day, us/step, dispatches/barriers/submits
# per step, GPU time by pass summing to the step's); then `--compare` on two
# result files prints the markdown table and writes a well-formed SVG with
# one line per device and time step. No timing is asserted.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args cli_bench_md "$@"

if ! "$vkmd" bench --systems water:216 --steps 50 --json "$scratch/a.json" >"$scratch/a.txt" 2>"$scratch/a.err"; then
  cat "$scratch/a.err"
  err "vkmd bench failed"
fi
cat "$scratch/a.txt"
$py - "$scratch/a.json" <<'PY' || err "bench JSON"
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["benchmark"] == "md"
for k in ("vkmd_version", "commit", "date", "host_cpu", "device_name"):
    assert d[k], k
for k in ("name", "vendor", "type", "driver_name", "driver_info", "driver_version", "vulkan"):
    assert d["device"][k], k
assert d["settings"]["cutoff_A"] == 9 and d["settings"]["ewald_tolerance"] == 0.0005
runs = d["runs"]
assert [r["dt_fs"] for r in runs] == [4, 2], runs
passes = ("neighbor", "nonbonded", "bonded", "pme_spread", "pme_fft", "pme_convolve",
          "pme_gather", "integrate", "constraints", "reductions", "step", "forces")
# the fused step (a periodic system with PME): the step and forces kernels
# carry integration, constraints, spread, pairs and bonded terms; the FFTs,
# the final gather and the reductions stay passes of their own
fused_passes = ("step", "forces", "pme_fft", "reductions")
for r in runs:
    assert r["system"] == "water:216" and r["atoms"] == 648 and r["steps"] == 50
    assert r["hmr_amu"] == (1.5 if r["dt_fs"] == 4 else 0)
    for k in ("wall_s", "ns_per_day", "us_per_step", "gpu_us_per_step", "dispatches_per_step",
              "barriers_per_step", "submits_per_step", "steps_per_command_buffer"):
        assert isinstance(r[k], (int, float)) and math.isfinite(r[k]) and r[k] > 0, (k, r[k])
    # ns/day from the wall time per step
    assert abs(r["ns_per_day"] - r["dt_fs"] * 1e-6 * 86400 / (r["us_per_step"] * 1e-6)) < 1e-3 * r["ns_per_day"]
    assert r["fused_step"] is True, r
    for k in ("lane_pairs_per_step", "pairs_within_cutoff", "inner_tiles", "outer_tiles"):
        assert r[k] > 0, (k, r)
    # each pair once, from a pruned list: lane pairs over pairs within the cutoff
    assert 1 < r["lane_pairs_per_step"] / r["pairs_within_cutoff"] < 4, r
    for k in ("list_rebuilds_per_100_steps", "list_prunes_per_100_steps",
              "repeated_steps_per_100_steps"):
        assert r[k] >= 0, (k, r)
    assert r["skin_A"] > 0 and r["outer_skin_A"] >= r["skin_A"], r
    assert r["dispatches_per_step"] <= 10 and r["barriers_per_step"] <= 12, r
    p = r["passes_us_per_step"]
    assert set(p) == set(passes), p
    assert all(p[k] > 0 for k in fused_passes), p
    total = sum(p.values())
    assert abs(total - r["gpu_us_per_step"]) <= 1e-3 * r["gpu_us_per_step"] + 0.01, (total, r)
    # per recorded batch of steps (a halt for a rebuild ends one early and
    # starts another): its submit and one read of the list's state
    # (the last batch may be partial: on lavapipe 8-step batches, cut for a
    # stop request to be seen, run 50 steps as 7)
    batches = (-(-r["steps"] // r["steps_per_command_buffer"]) / r["steps"]
               + r["halts_per_100_steps"] / 100)
    assert r["submits_per_step"] <= 2 * batches + 1e-9, r
    print("  %s %g fs: %.3f ns/day, %.1f dispatches, %.1f barriers, %.3f submits per step; "
          "passes sum %.1f us = GPU step %.1f us" % (r["system"], r["dt_fs"], r["ns_per_day"],
          r["dispatches_per_step"], r["barriers_per_step"], r["submits_per_step"], total,
          r["gpu_us_per_step"]))
PY

# --nonbonded: the run at an fp16 LJ precision carries it in its name and JSON.
if "$vkmd" bench --systems water:216 --dt 2 --steps 20 --nonbonded fp16-powers:5 \
    --json "$scratch/n.json" >"$scratch/n.txt" 2>"$scratch/n.err"; then
  $py - "$scratch/n.json" <<'PY' || err "bench --nonbonded JSON"
import json, sys
r = json.load(open(sys.argv[1]))["runs"]
assert len(r) == 1 and r[0]["system"] == "water:216 [fp16-powers:5]", r
assert r[0]["lj_precision"] == "fp16-powers" and r[0]["lj_fp16_min_r_a"] == 5 and r[0]["ns_per_day"] > 0, r
print("  --nonbonded fp16-powers:5: %.3f ns/day" % r[0]["ns_per_day"])
PY
else
  cat "$scratch/n.err"; err "bench --nonbonded fp16-powers:5 failed"
fi

# --compare: the same results under another device name.
sed 's/"device_name": "[^"]*"/"device_name": "Other GPU"/' "$scratch/a.json" >"$scratch/b.json"
if "$vkmd" bench --compare "$scratch/a.json" "$scratch/b.json" --svg "$scratch/c.svg" >"$scratch/c.md" 2>"$scratch/c.err"; then
  cat "$scratch/c.md"
  $py - "$scratch/c.md" "$scratch/c.svg" <<'PY' || err "--compare table or SVG"
import sys, xml.dom.minidom
md = open(sys.argv[1]).read().splitlines()
assert md[0].startswith("| system | atoms | dt (fs) |") and "Other GPU" in md[0], md[0]
assert md[1].startswith("|---|")
assert len(md) == 4 and md[2].startswith("| water:216 | 648 | 4 |") and md[3].startswith("| water:216 | 648 | 2 |"), md
svg = xml.dom.minidom.parse(sys.argv[2])
lines = svg.getElementsByTagName("polyline")
assert len(lines) == 4, len(lines)  # 2 devices x 2 time steps
texts = " ".join(t.firstChild.data for t in svg.getElementsByTagName("text") if t.firstChild)
assert "Other GPU" in texts and "ns/day" in texts and "atoms" in texts, texts
print("  SVG: %d lines, legend and axes present" % len(lines))
PY
else
  cat "$scratch/c.err"
  err "--compare failed"
fi
"$vkmd" bench --compare "$scratch/a.txt" >/dev/null 2>"$scratch/d.err" && err "--compare accepted a text file" ||
  echo "  refused: $(cat "$scratch/d.err")"

cli_finish test_cli_bench_md
