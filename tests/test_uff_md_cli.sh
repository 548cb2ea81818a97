#!/usr/bin/env bash
# `vkmd uff md` end to end (a few seconds on lavapipe):
#   - 16 formic-acid replicas, 2000 steps of 0.5 fs at 300 K, friction 20/ps:
#     JSON with units, every replica's mean temperature finite, their mean
#     within 10 % of 300 K (15 degrees of freedom per replica: ~3 % expected
#     over the 16 after the first ~100 fs of the run's own equilibration);
#   - the same seed prints the same digits and writes the same SDF; another
#     seed does not;
#   - usage errors exit 2 (--device cpu, unknown option, bad values).
# Without a Vulkan device the run parts are skipped, unless
# VKMD_REQUIRE_DEVICE=1, where they fail.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args uff_md_cli "$@"
run="formic-acid --replicas 16 --steps 2000 --dt 0.5 --temperature 300 --friction 20"

if "$vkmd" uff energy formic-acid --device 0 >/dev/null 2>"$scratch/dev.err"; then
  # shellcheck disable=SC2086
  "$vkmd" uff md $run --seed 5 --json --out "$scratch/a.sdf" >"$scratch/a.json" || bad "md (1) failed"
  # shellcheck disable=SC2086
  "$vkmd" uff md $run --seed 5 --json --out "$scratch/b.sdf" >"$scratch/b.json" || bad "md (2) failed"
  # shellcheck disable=SC2086
  "$vkmd" uff md $run --seed 6 --json >"$scratch/c.json" || bad "md (3) failed"
  if cmp -s "$scratch/a.json" "$scratch/b.json" && cmp -s "$scratch/a.sdf" "$scratch/b.sdf"; then
    ok "seed 5 twice: same digits, same SDF"
  else
    bad "seed 5 twice: runs differ"
  fi
  if cmp -s "$scratch/a.json" "$scratch/c.json"; then bad "seeds 5 and 6 give the same run"; else ok "seeds 5 and 6 differ"; fi
  n=$(grep -c '^\$\$\$\$' "$scratch/a.sdf")
  [ "$n" = 16 ] && ok "a.sdf has 16 records" || bad "a.sdf has $n records"
  $py - "$scratch/a.json" <<'PY' && ok "mean temperature in band" || bad "mean temperature"
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["units"]["temperature"] == "K" and d["n_replicas"] == 16 and d["steps"] == 2000
t = [r["mean_temperature_k"] for r in d["replicas"]]
assert all(math.isfinite(x) for x in t)
print("    replicas' mean temperatures %.1f..%.1f K, mean %.1f K" % (min(t), max(t), d["mean_temperature_k"]))
sys.exit(0 if abs(d["mean_temperature_k"] - 300) <= 30 else 1)
PY
else
  cli_no_device "$(cat "$scratch/dev.err")"
fi

for args in "formic-acid --device cpu" "formic-acid --bogus" "formic-acid --dt 0" \
  "formic-acid --temperature -3" "formic-acid --replicas 0" "--replicas 2"; do
  # shellcheck disable=SC2086
  "$vkmd" uff md $args >/dev/null 2>"$scratch/usage.err"
  rc=$?
  if [ $rc = 2 ]; then ok "md $args: exit 2, $(head -c 100 "$scratch/usage.err")"; else bad "md $args: rc $rc"; fi
done

cli_finish test_uff_md_cli
