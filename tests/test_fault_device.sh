#!/usr/bin/env bash
# A sick device loses nothing (`vkmd run` on water:216, 200 steps, a
# checkpoint every 20, faults injected by VKMD_FAULT, vk/fault.h):
#   1. the device lost at a submit mid-run: a clear message, a non-zero exit,
#      energy.csv holds every good report, the checkpoint loads, and
#      --restart finishes the run bitwise equal to an uninterrupted one;
#   2. device memory exhausted at an allocation, at a fresh start and at a
#      restart: a clear message naming the buffer, a non-zero exit, the
#      checkpoint untouched, and a later --restart still bitwise;
#   3. a system larger than the device's memory (VKMD_DEVICE_HEAP_MB pretends
#      a 0.25 MiB device) is refused before the run starts, naming the memory
#      it needs, with no outputs written;
#   4. a malformed VKMD_FAULT is refused, not ignored;
#   5. a pipeline that fails to compile (most compile at their first
#      dispatch, vk/pipeline.h), the first one and the last one: a clear
#      message naming the shader, a non-zero exit, and where a checkpoint
#      was written a --restart from it finishes the run bitwise.
# Arguments: $1 vkmd binary, $2 tests source dir, $3 scratch dir.
. "$(dirname "$0")/cli_lib.sh" && cli_args fault_device "$@"
. "$(dirname "$0")/fault_lib.sh"
opts=(water:216 --no-window --steps 200 --report-every 10 --traj-every 10 --checkpoint-every 20
  --seed 3 --precision single)

"$vkmd" run "${opts[@]}" --out "$scratch/a" >"$scratch/a.log" 2>&1 ||
  { cli_skip_without_device "$scratch/a.log" test_fault_device; bad "uninterrupted run: $(tail -3 "$scratch/a.log")"; }

# 1. Device lost at the 60th submit (after the step-40 checkpoint).
VKMD_FAULT=submit:60:device_lost "$vkmd" run "${opts[@]}" --out "$scratch/b" >"$scratch/b.log" 2>&1
rc=$?
[ $rc != 0 ] && ok "device lost: exit $rc" || bad "device lost: exit 0"
grep -q "Vulkan device lost: .*VK_ERROR_DEVICE_LOST" "$scratch/b.log" &&
  ok "device lost: message: $(grep -m1 'device lost' "$scratch/b.log")" || bad "device lost: no message: $(tail -3 "$scratch/b.log")"
grep -q "last good checkpoint, .*checkpoint.chk, is at step" "$scratch/b.log" &&
  ok "device lost: the message names the last checkpoint" || bad "device lost: no checkpoint named"
last=$(grep -v '^#' "$scratch/b/energy.csv" | tail -1 | cut -d, -f1)
[ "${last:-0}" -gt 0 ] && [ "$last" -lt 200 ] && ok "device lost mid-run (last report: step $last)" ||
  bad "device lost: last report step '$last'"
rows_prefix "$scratch/a" "$scratch/b" "device lost"
step=$(ck_loads "$scratch/b/checkpoint.chk") && ok "device lost: the checkpoint loads (step $step)" ||
  bad "device lost: the checkpoint does not load"
cp -r "$scratch/b" "$scratch/b2" # for 2.
if "$vkmd" run "${opts[@]}" --out "$scratch/b" --restart "$scratch/b/checkpoint.chk" >"$scratch/b.restart.log" 2>&1; then
  ok "device lost: --restart finishes the run"
else bad "device lost: restart: $(tail -3 "$scratch/b.restart.log")"; fi
same_run "$scratch/a" "$scratch/b" "device lost + restart"

# 2. Out of device memory: at the first allocation of a fresh run, then at
# the 5th of a restart (the checkpoint must come through untouched).
VKMD_FAULT=alloc:1:oom "$vkmd" run "${opts[@]}" --out "$scratch/c" >"$scratch/c.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "out of device memory: .*bytes.*VK_ERROR_OUT_OF_DEVICE_MEMORY" "$scratch/c.log" &&
  ok "out of memory at start: exit $rc: $(grep -m1 'out of device memory' "$scratch/c.log")" ||
  bad "out of memory at start: exit $rc: $(tail -3 "$scratch/c.log")"
cp "$scratch/b2/checkpoint.chk" "$scratch/before.chk"
VKMD_FAULT=alloc:5:oom "$vkmd" run "${opts[@]}" --out "$scratch/b2" --restart "$scratch/b2/checkpoint.chk" \
  >"$scratch/b2.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "out of device memory" "$scratch/b2.log" &&
  ok "out of memory at restart: exit $rc: $(grep -m1 'out of device memory' "$scratch/b2.log")" ||
  bad "out of memory at restart: exit $rc: $(tail -3 "$scratch/b2.log")"
cmp -s "$scratch/before.chk" "$scratch/b2/checkpoint.chk" && ck_loads "$scratch/b2/checkpoint.chk" >/dev/null &&
  ok "out of memory at restart: the checkpoint is untouched and loads" || bad "out of memory: the checkpoint changed"
if "$vkmd" run "${opts[@]}" --out "$scratch/b2" --restart "$scratch/b2/checkpoint.chk" >"$scratch/b2.restart.log" 2>&1; then
  ok "out of memory: a later --restart finishes the run"
else bad "out of memory: restart: $(tail -3 "$scratch/b2.restart.log")"; fi
same_run "$scratch/a" "$scratch/b2" "out of memory + restart"

# 3. Too large for the device: refused before the first step.
VKMD_DEVICE_HEAP_MB=0.25 "$vkmd" run "${opts[@]}" --out "$scratch/d" >"$scratch/d.log" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "the run of 648 atoms needs [0-9.]* MiB of device memory; .* has 0.25 MiB" "$scratch/d.log"; then
  ok "too large: exit $rc: $(grep -m1 'needs' "$scratch/d.log")"
else bad "too large: exit $rc: $(tail -3 "$scratch/d.log")"; fi
[ ! -e "$scratch/d/checkpoint.chk" ] && [ ! -s "$scratch/d/energy.csv" ] &&
  ok "too large: refused before the run (no checkpoint, no energy rows)" || bad "too large: outputs written"

# 4. A typo in VKMD_FAULT.
VKMD_FAULT=submit:x:lost "$vkmd" run "${opts[@]}" --out "$scratch/e" >"$scratch/e.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "expected submit:N:device_lost, alloc:N:oom or compile:N:oom" "$scratch/e.log" &&
  ok "malformed VKMD_FAULT refused: exit $rc" || bad "malformed VKMD_FAULT: exit $rc: $(tail -3 "$scratch/e.log")"

# 5. A compilation fails: the first, and the last of the uninterrupted run's.
last=$(VKMD_LOG=debug "$vkmd" run "${opts[@]}" --steps 20 --out "$scratch/g" 2>&1 |
  sed -n 's/.*vk: \([0-9]*\) pipelines compiled.*/\1/p')
[ -n "$last" ] && [ "$last" -gt 1 ] && ok "the run compiles $last pipelines" || bad "no pipeline count: '$last'"
for n in 1 ${last:-2}; do
  rm -rf "$scratch/f"
  VKMD_FAULT=compile:$n:oom "$vkmd" run "${opts[@]}" --out "$scratch/f" >"$scratch/f.log" 2>&1
  rc=$?
  if [ $rc != 0 ] && grep -q "[a-z_]*\.comp: .*VK_ERROR_OUT_OF_HOST_MEMORY" "$scratch/f.log"; then
    ok "compile $n fails: exit $rc: $(grep -m1 -o '[a-z_]*\.comp: .*' "$scratch/f.log")"
  else bad "compile $n fails: exit $rc: $(tail -3 "$scratch/f.log")"; fi
  [ ! -e "$scratch/f/final.pdb" ] && ok "compile $n fails: no final structure" || bad "compile $n: final.pdb written"
  if [ -e "$scratch/f/checkpoint.chk" ]; then
    if "$vkmd" run "${opts[@]}" --out "$scratch/f" --restart "$scratch/f/checkpoint.chk" \
      >"$scratch/f.restart.log" 2>&1; then
      ok "compile $n fails: --restart from its checkpoint finishes"
      same_run "$scratch/a" "$scratch/f" "compile $n fails + restart"
    else bad "compile $n fails: restart: $(tail -3 "$scratch/f.restart.log")"; fi
  fi
done

cli_finish test_fault_device
