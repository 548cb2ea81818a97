#!/usr/bin/env bash
# Runs every fuzz harness of BUILD for SECONDS each, one after another:
#   fuzz/run.sh BUILD SECONDS [HARNESS...]
# libFuzzer with a fixed seed (-seed=1), an input taking over 1 s counted as a
# hang (-timeout=1), 2 GB of memory at most; ASan+UBSan and LeakSanitizer are
# on, so a crash, leak, hang or UB stops the harness with a non-zero exit.
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
failed=()
for h in "${harnesses[@]}"; do
  work=$build/fuzz-work/$h
  findings=$build/findings/$h
  mkdir -p "$work" "$findings"
  [ -d "$build/corpus/$h" ] && cp -n "$build/corpus/$h"/* "$work"/ 2>/dev/null
  log=$build/findings/$h.log
  "$build/fuzz_$h" "$work" -seed=1 -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
  rc=$?
  stats=$(grep -E '^#[0-9]+.*(cov|DONE)' "$log" | tail -1)
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  echo "fuzz $h: ${seconds} s, ${execs:-?} runs, ${stats:-no figures}"
  if [ $rc -ne 0 ]; then
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
