#!/usr/bin/env bash
# Copies what the GPU machine runs (the library, the GPU tests, examples, benchmarks) from a build
# folder into a small one that the device tool can carry (the whole build is ~100 MiB of objects).
# Usage: tools/carry_gpu_build.sh [BUILD_DIR] [OUT_DIR]   (defaults: build-gpu build-gpu-run)
set -euo pipefail
src=${1:-build-gpu}
dst=${2:-build-gpu-run}
rm -rf "$dst"
mkdir -p "$dst/tests" "$dst/examples" "$dst/bench"
cp -a "$src"/libloom.so* "$dst/"
for f in "$src"/tests/loom_gpu_tests "$src"/tests/loom_unit_tests; do [ -x "$f" ] && cp "$f" "$dst/tests/"; done
for f in "$src"/examples/*; do [ -f "$f" ] && [ -x "$f" ] && cp "$f" "$dst/examples/"; done
for f in "$src"/bench/bench_*; do [ -f "$f" ] && [ -x "$f" ] && cp "$f" "$dst/bench/"; done
du -sh "$dst"
