#!/usr/bin/env bash
# Runs the fuzz targets built by Fuzz/build.sh one at a time, at the lowest priority: first
# on every saved reproducer in Fuzz/regressions/TARGET, then from the seeds in
# Fuzz/corpus/TARGET for FUZZ_RUNS executions or FUZZ_SECONDS seconds, whichever ends first
# (0 means no bound). New inputs go to .build/fuzz/corpus/TARGET, crashes to
# .build/fuzz/crashes/TARGET, logs to .build/fuzz/logs. Prints one line per target and
# exits 1 if any target crashed.
# Usage: Fuzz/run.sh [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/.."

OUT=.build/fuzz
RUNS=${FUZZ_RUNS:-1000000}
# 0 means no bound, which libFuzzer spells -1 (its -runs=0 runs the corpus and stops).
[ "$RUNS" = 0 ] && RUNS=-1
TIME=${FUZZ_SECONDS:-60}
# libFuzzer's random seed; 0 (the default) picks a new one each run, another number repeats one.
SEED=${FUZZ_SEED:-0}
# Swift's own crash handler makes AddressSanitizer report errors that are not there.
export SWIFT_BACKTRACE=enable=no
if [ $# -eq 0 ]; then
  set -- $(ls Fuzz/Targets | sed -n 's/^\(.*\)\.swift$/\1/p' | grep -v '^Support$')
fi

failed=()
printf '%-10s %12s %9s %8s %8s  %s\n' target executions exec/s cov ft result
for target in "$@"; do
  binary=$OUT/fuzz-$target
  [ -x "$binary" ] || { echo "fuzz: $binary is missing: run Fuzz/build.sh" >&2; exit 2; }
  mkdir -p "$OUT/corpus/$target" "$OUT/crashes/$target" "$OUT/logs"
  log=$OUT/logs/$target.log
  problems=()
  : > "$OUT/logs/$target-regressions.log"
  for input in Fuzz/regressions/"$target"/*; do
    [ -f "$input" ] || continue
    if ! nice -n 19 "$binary" "$input" >> "$OUT/logs/$target-regressions.log" 2>&1; then
      problems+=("reproducer $input fails (see $OUT/logs/$target-regressions.log)")
    fi
  done
  started=$(date +%s.%N)
  nice -n 19 "$binary" -runs="$RUNS" -max_total_time="$TIME" -seed="$SEED" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$OUT/crashes/$target/" \
    "$OUT/corpus/$target" "Fuzz/corpus/$target" > "$log" 2>&1
  status=$?
  elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  if [ $status -ne 0 ]; then
    problems+=("crash (exit $status): $OUT/crashes/$target/$(ls -t "$OUT/crashes/$target" | head -1) (see $log)")
  fi
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(awk -v n="${executions:-0}" -v t="$elapsed" 'BEGIN { printf "%d", n / (t > 0 ? t : 1) }')
  coverage=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$coverage")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$coverage")
  result=ok
  if [ ${#problems[@]} -gt 0 ]; then result=$(printf '%s; ' "${problems[@]}"); failed+=("$target"); fi
  printf '%-10s %12s %9s %8s %8s  %s\n' "$target" "${executions:--}" "${rate:--}" "${cov:--}" "${ft:--}" "${result%; }"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
