#!/usr/bin/env bash
# Runs every jitson fuzz target in turn, each for a number of minutes (default 10); stops at
# the first target that finds a crash (its input is in fuzz/artifacts/TARGET/).
#
#   fuzz/run-all.sh [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
for file in fuzz/fuzz_targets/*.rs; do
  target=$(basename "$file" .rs)
  echo "==> $target ($minutes min)"
  fuzz/run.sh "$target" "$minutes"
done
