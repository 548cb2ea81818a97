#!/usr/bin/env bash
# The neighbour list's rebuild schedule over a long run, fused step against
# pass by pass (issue 31's check): water:1000 at 4 fs for 3,000 steps with
# each, from `vkmd bench` (JSON). Passes when the fused step rebuilds at most
# 1.2x as often as pass by pass and neither repeats a step. About 6-10
# minutes on a 2-core lavapipe machine; seconds on a GPU.
#   tools/bench_rebuilds.sh [VKMD] [SYSTEM] [STEPS]
set -euo pipefail
vkmd=${1:-build/vkmd}
system=${2:-water:1000}
steps=${3:-3000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for unfused in 0 1; do
  VKMD_MD_UNFUSED=$unfused "$vkmd" bench --systems "$system" --dt 4 --steps "$steps" \
    --json "$dir/u$unfused.json" >"$dir/u$unfused.txt"
done
/usr/bin/python3 - "$dir/u0.json" "$dir/u1.json" <<'PY'
import json, sys
def run(path):
    r = json.load(open(path))["runs"][0]
    return r
fused, unfused = run(sys.argv[1]), run(sys.argv[2])
for name, r in (("fused", fused), ("pass by pass", unfused)):
    print("%-13s fused_step %-5s rebuilds/100 %.2f  prunes/100 %.1f  halts/100 %.2f  "
          "repeated steps/100 %.2f  ns/day %.3f  dispatches/step %.1f" % (
              name, r["fused_step"], r["list_rebuilds_per_100_steps"],
              r["list_prunes_per_100_steps"], r.get("halts_per_100_steps", 0.0),
              r["repeated_steps_per_100_steps"], r["ns_per_day"], r["dispatches_per_step"]))
ok = (fused["fused_step"] and not unfused["fused_step"]
      and fused["list_rebuilds_per_100_steps"] <= 1.2 * unfused["list_rebuilds_per_100_steps"] + 1e-9
      and fused["repeated_steps_per_100_steps"] == 0 and unfused["repeated_steps_per_100_steps"] == 0)
print("PASS" if ok else "FAIL", "(fused rebuilds within 1.2x of pass by pass, no repeated step)")
sys.exit(0 if ok else 1)
PY
