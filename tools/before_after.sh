#!/usr/bin/env bash
# Runs benchmarks of two builds interleaved in one session (before, after, before, after), so a
# change's figures are compared on one machine in one run (the Structure issue's constraint).
# Usage: tools/before_after.sh BEFORE_DIR AFTER_DIR OUT_DIR bench_name...
#   *_DIR: a folder with libloom.so* and bench/ (tools/carry_gpu_build.sh makes one).
set -u
before=$1 after=$2 out=$3
shift 3
mkdir -p "$out"
for b in "$@"; do
  for round in 1 2; do
    for side in before after; do
      dir=$before; [ "$side" = after ] && dir=$after
      echo "== $b $side (round $round)"
      LOOM_CACHE_DIR=$(mktemp -d /tmp/loom-ba-XXXXXX) timeout 240 "$dir/bench/$b" "$out/$b.$side.$round.json" 2>&1 | tail -40
    done
  done
done
