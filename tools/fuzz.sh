#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, one a parser) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz, and runs each for SECONDS on its seeds
# (tests/corpus/<target>/, copied into build-fuzz/corpus/<target>/, where new inputs are kept).
# Prints one line a target; exits 1 when any target crashed, leaked, hung or broke a contract (the
# input that did it is in build-fuzz/artifacts/, the log in build-fuzz/logs/). Without clang or
# libFuzzer it says so and exits 0.
#
# Usage: tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 60 seconds, every target)
#   replay an artifact: build-fuzz/fuzz/TARGET build-fuzz/artifacts/TARGET-crash-...
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
case "$seconds" in ""|*[!0-9]*) echo "usage: tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2; exit 2 ;; esac
shift || true
all=(fuzz_map fuzz_import_uvtt fuzz_import_foundry fuzz_import_tiled fuzz_import_any fuzz_deck fuzz_rules fuzz_variant fuzz_battle fuzz_command)
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  [ -d "tests/corpus/$t" ] || { echo "fuzz: unknown target $t (${all[*]})" >&2; exit 2; }
done

# clang with libFuzzer (Debian: the clang package and its libclang-rt-*-dev).
if ! command -v clang++ >/dev/null || ! command -v clang >/dev/null; then
  echo "fuzz: skipped: clang++ is not installed (Debian: apt-get install clang)"
  exit 0
fi
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' >"$probe/p.cpp"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>"$probe/err"; then
  echo "fuzz: skipped: clang++ cannot link libFuzzer ($(head -1 "$probe/err"))"
  exit 0
fi

build=build-fuzz
start=$(date +%s)
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSIGHTLINE_FUZZ=ON \
  -DSIGHTLINE_BUILD_APP=OFF -DSIGHTLINE_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
echo "fuzz: built in $(( $(date +%s) - start )) s"

mkdir -p "$build/artifacts" "$build/logs" "$build/tmp"
export TMPDIR="$PWD/$build/tmp"  # the scratch folders of the targets that read files
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
final_stat() { awk -v key="stat::$1:" '$1 == key { print $2; exit }' "$log"; }  # libFuzzer's final numbers
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus"
  cp tests/corpus/"$t"/* "$corpus"/
  log="$build/logs/$t.log"
  t0=$(date +%s)
  rc=0
  "$build/fuzz/$t" "$corpus" -dict=fuzz/json.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 >"$log" 2>&1 || rc=$?
  took=$(( $(date +%s) - t0 ))
  runs=$(final_stat number_of_executed_units)
  rate=$(final_stat average_exec_per_sec)
  added=$(final_stat new_units_added)
  if [ "$rc" -eq 0 ]; then
    result="ok"
  else
    failed+=("$t")
    artifact=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -1)
    result="FAILED (exit $rc${artifact:+, input $artifact}; log $log)"
  fi
  printf '%-20s %9s runs %5s s %6s exec/s %5s new inputs  %s\n' "$t" "${runs:-?}" "$took" "${rate:-?}" "${added:-?}" "$result"
done

if [ "${#failed[@]}" -gt 0 ]; then
  for t in "${failed[@]}"; do
    echo "---- $t ($build/logs/$t.log) ----"
    grep -v '^#\|^INFO:\|^stat::\|Uses: [0-9]*$\|^\(###### \|MS: \|base unit\)' "$build/logs/$t.log" | tail -40 || true
  done
  echo "fuzz: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets ran clean, ${seconds} s each ($(( $(date +%s) - start )) s in all)"
