#!/usr/bin/env bash
# Runs the whole GPU test suite in parallel shards that share one kernel cache, and prints one
# summary. The suite in one process takes over 13 minutes on an H100 (thousands of cold NVRTC
# compiles); 16 shards take about 4.
#
# Usage: tests/run_gpu_tests.sh [BUILD_DIR] [SHARDS] [-- extra Catch2 arguments]
#   BUILD_DIR  where loom_gpu_tests was built (default: build)
#   SHARDS     parallel processes (default: 16; each compiles on its own CPU core)
# Environment: LOOM_CACHE_DIR (default: a fresh directory under /tmp, shared by the shards),
#   GPU_TEST_TIMEOUT (seconds per shard, default 560), GPU_TEST_LOGS (where the shard logs go,
#   default: $OUT when set, else a temporary directory).
# Exit status: 0 when every shard passed, 1 otherwise (77 when there is no GPU).
set -u
build=${1:-build}
shards=${2:-16}
shift $(( $# > 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
bin="$build/tests/loom_gpu_tests"
[ -x "$bin" ] || { echo "run_gpu_tests: no $bin (build the tests first)" >&2; exit 2; }

export LOOM_CACHE_DIR=${LOOM_CACHE_DIR:-$(mktemp -d /tmp/loom-gpu-cache-XXXXXX)}
logs=${GPU_TEST_LOGS:-${OUT:-$(mktemp -d /tmp/loom-gpu-logs-XXXXXX)}}
work=$(mktemp -d /tmp/loom-gpu-shards-XXXXXX)
mkdir -p "$logs"

# Test case names, one per line; Catch2's -f file takes names, with commas escaped.
"$bin" --list-test-names-only > "$work/names.txt"
rc=$?
if [ $rc -eq 77 ]; then echo "run_gpu_tests: no GPU (exit 77)"; exit 77; fi
# (gpu_main prints the device's name first: not a test case.)
sed -i '/^$/d; /^loom_gpu_tests on /d; s/,/\\,/g' "$work/names.txt"
total=$(wc -l < "$work/names.txt")
# Round-robin: the slow cases of one file (listed together) spread over the shards.
awk -v n="$shards" -v dir="$work" '{ print > (dir "/shard" (NR % n) ".txt") }' "$work/names.txt"

start=$(date +%s)
for i in $(seq 0 $((shards - 1))); do
  [ -s "$work/shard$i.txt" ] || continue
  (
    timeout "${GPU_TEST_TIMEOUT:-560}" "$bin" -f "$work/shard$i.txt" --durations yes "$@" > "$logs/gpu_shard$i.log" 2>&1
    echo "exit status $?" >> "$logs/gpu_shard$i.log"
  ) &
done
wait
elapsed=$(( $(date +%s) - start ))

failed=0 cases=0 assertions=0
for i in $(seq 0 $((shards - 1))); do
  log="$logs/gpu_shard$i.log"
  [ -f "$log" ] || continue
  status=$(tail -n 1 "$log" | sed 's/exit status //')
  line=$(grep -E '^(All tests passed|test cases:)' "$log" | tail -n 1)
  c=$(echo "$line" | sed -nE 's/.*in ([0-9]+) test case.*/\1/p; s/^test cases: *([0-9]+).*/\1/p' | head -n 1)
  a=$(echo "$line" | sed -nE 's/^All tests passed \(([0-9]+) assertion.*/\1/p; s/.*assertions: *([0-9]+).*/\1/p' | head -n 1)
  cases=$((cases + ${c:-0}))
  assertions=$((assertions + ${a:-0}))
  if [ "$status" != 0 ]; then
    failed=$((failed + 1))
    echo "shard $i FAILED (exit status $status): ${line:-no summary}"
    grep -E -B2 -A12 'FAILED|due to unexpected exception|fatal error condition' "$log" | head -n 60
  fi
done
if [ $failed -eq 0 ]; then
  echo "GPU suite: all $total test cases passed ($assertions assertions in $cases test cases, $shards shards, ${elapsed} s)"
  exit 0
fi
echo "GPU suite: $failed of $shards shards FAILED ($total test cases listed, ${elapsed} s); logs in $logs"
exit 1
