#!/usr/bin/env bash
# Runs every fuzz harness of BUILD for SECONDS each, one per core at a time
# (FUZZ_JOBS, default nproc; libFuzzer runs one thread, so each harness still
# has a core to itself for its SECONDS):
#   fuzz/run.sh BUILD SECONDS [HARNESS...]
# libFuzzer with a fixed seed (-seed=1), an input taking over 1 s counted as a
# hang (-timeout=1), 2 GB of memory at most; ASan+UBSan and LeakSanitizer are
# on, so a crash, leak, hang or UB stops the harness with a non-zero exit.
# A hang must reproduce: on a loaded machine a process can stall for a second
# without any input being slow, so a timeout's input is run again alone
# (3 times, 1 s each); if it then finishes, the stall is logged and fuzzing
# goes on for the rest of SECONDS.
# Inputs that reach new code accumulate in BUILD/fuzz-work/<harness>/ (seeded
# from BUILD/corpus/); findings are saved in BUILD/findings/<harness>/ and the
# script exits 1 if any harness found anything. Each harness's last line of
# figures (cov: edges, ft: features, corp: inputs, exec/s) is printed, and its
# whole log kept in BUILD/findings/<harness>.log.
set -uo pipefail
build=$1
seconds=${2:-30}
shift 2 || true
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for f in "$build"/fuzz_*; do
    [ -x "$f" ] && harnesses+=("$(basename "$f" | sed 's/^fuzz_//')")
  done
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export VKMD_LOG=error

# 0 when every artifact in $1 is a timeout that does not reproduce.
stall_only() {
  local bin=$1 dir=$2 a
  for a in "$dir"/*; do
    [ -e "$a" ] || continue
    case $(basename "$a") in timeout-*) ;; *) return 1 ;; esac
    local ok=0
    for _ in 1 2 3; do "$bin" -timeout=1 "$a" >/dev/null 2>&1 || ok=1; done
    [ $ok = 0 ] || return 1
  done
  return 0
}

# One harness; its line of figures goes to BUILD/findings/<harness>.summary,
# its exit code to <harness>.rc.
fuzz_one() {
  local h=$1 work findings log start runs stalls rc left n stats
  work=$build/fuzz-work/$h
  findings=$build/findings/$h
  rm -rf "$findings"
  mkdir -p "$work" "$findings"
  [ -d "$build/corpus/$h" ] && cp -n "$build/corpus/$h"/* "$work"/ 2>/dev/null
  log=$build/findings/$h.log
  : >"$log"
  start=$(date +%s) runs=0 stalls=0 rc=0
  while :; do
    left=$((seconds - ($(date +%s) - start)))
    [ $left -ge 1 ] || break
    "$build/fuzz_$h" "$work" -seed=1 -max_total_time="$left" -timeout=1 -rss_limit_mb=2048 \
      -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" >"$log.part" 2>&1
    rc=$?
    cat "$log.part" >>"$log"
    n=$(grep -E '^stat::number_of_executed_units' "$log.part" | awk '{print $2}')
    runs=$((runs + ${n:-0}))
    stats=$(grep -E '^#[0-9]+.*(cov|DONE)' "$log.part" | tail -1)
    [ $rc = 0 ] && break
    if stall_only "$build/fuzz_$h" "$findings"; then
      stalls=$((stalls + 1))
      echo "fuzz $h: a 1 s timeout that does not reproduce (a stalled process); going on" >>"$log"
      rm -f "$findings"/timeout-*
      rc=0
      continue
    fi
    break
  done
  rm -f "$log.part"
  echo "fuzz $h: ${seconds} s, $runs runs, ${stats:-no figures}$([ $stalls -gt 0 ] && echo " ($stalls unreproduced stalls)")" \
    >"$build/findings/$h.summary"
  echo $rc >"$build/findings/$h.rc"
}

jobs_max=${FUZZ_JOBS:-$(nproc)}
for h in "${harnesses[@]}"; do
  mkdir -p "$build/findings"
  rm -f "$build/findings/$h.summary" "$build/findings/$h.rc"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  fuzz_one "$h" &
done
wait

failed=()
for h in "${harnesses[@]}"; do
  log=$build/findings/$h.log
  cat "$build/findings/$h.summary" 2>/dev/null || echo "fuzz $h: no figures (the harness's run did not finish)"
  rc=$(cat "$build/findings/$h.rc" 2>/dev/null || echo 1)
  if [ "$rc" -ne 0 ]; then
    echo "fuzz $h: FINDING (exit $rc); log: $log" >&2
    grep -E 'ERROR: |runtime error|SUMMARY|Test unit written' "$log" | head -5 >&2
    failed+=("$h")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no findings in ${#harnesses[@]} harnesses"
