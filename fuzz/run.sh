#!/usr/bin/env bash
# Runs one jitson fuzz target under libFuzzer for a number of minutes (default 10), single
# process, niced, with the seed corpus and the JSON dictionary; see fuzz/README.md.
#
#   fuzz/run.sh TARGET [MINUTES]
#
# Environment: FUZZ_BUILD_FLAGS (cargo fuzz build flags, default "-a": debug assertions;
# add "-s none" to drop AddressSanitizer), FUZZ_ARGS (extra libFuzzer flags), FUZZ_NICE.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  echo "usage: fuzz/run.sh TARGET [MINUTES]   (targets: $(ls fuzz/fuzz_targets | sed 's/\.rs$//' | tr '\n' ' '))" >&2
  exit 2
fi
target=$1
minutes=${2:-10}
if [ ! -f "fuzz/fuzz_targets/$target.rs" ]; then
  echo "no such target: $target" >&2
  exit 2
fi

# Tools: nightly Rust and cargo-fuzz, installed when missing.
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

corpus=fuzz/corpus/$target
mkdir -p "$corpus" fuzz/logs
# schema_gen reads its input as a generator's byte stream: JSON seeds and tokens mean little.
# It also compiles every generated schema to native code (every tier): Cranelift in this
# instrumented build (AddressSanitizer, debug assertions) runs several hundred times slower
# than in a release build (one input: 44 ms there, 29 s here), hence its longer timeout;
# schema_decode's first input pays for compiling its fixed schemas (every tier) the same way.
# The kernels target checks every kernel at up to ~80 offsets per input: shorter inputs
# keep it fast, and every SIMD block and tail boundary is well inside 1 KiB.
case $target in
  schema_gen) seeds=() flags=(-max_len=2048) timeout=180 ;;
  schema_decode) seeds=(fuzz/seeds/json testdata/jsontestsuite) flags=(-dict=fuzz/json.dict -max_len=8192) timeout=180 ;;
  kernels) seeds=(fuzz/seeds/json testdata/jsontestsuite) flags=(-dict=fuzz/json.dict -max_len=1024) ;;
  typed) seeds=(fuzz/seeds/typed fuzz/seeds/json) flags=(-dict=fuzz/json.dict -max_len=8192) ;;
  yaml) seeds=(fuzz/seeds/yaml fuzz/seeds/json) flags=(-dict=fuzz/json.dict -max_len=8192) ;;
  *) seeds=(fuzz/seeds/json testdata/jsontestsuite) flags=(-dict=fuzz/json.dict -max_len=8192) ;;
esac

# shellcheck disable=SC2086 # FUZZ_BUILD_FLAGS and FUZZ_ARGS are word lists
nice -n "${FUZZ_NICE:-10}" cargo +nightly fuzz run ${FUZZ_BUILD_FLAGS--a} "$target" "$corpus" "${seeds[@]}" -- \
  "${flags[@]}" -len_control=0 -timeout="${timeout:-20}" -rss_limit_mb=4096 -print_final_stats=1 \
  -max_total_time=$((minutes * 60)) ${FUZZ_ARGS:-} 2>&1 | tee "fuzz/logs/$target.log"
