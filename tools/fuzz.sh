#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, one a parser) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in BUILD, and runs each for SECONDS on its seeds
# (tests/corpus/<target>/, copied into BUILD/corpus/<target>/, where new inputs are kept), as many at
# once as there are cores. Prints one line a target; exits 1 when any target crashed, leaked, hung or
# broke a contract (the input that did it is in BUILD/artifacts/, the log in BUILD/logs/). Without
# clang or libFuzzer it says so and exits 0.
#
# BUILD is build-fuzz, or $SIGHTLINE_FUZZ_BUILD: a build configured with -DSIGHTLINE_FUZZ=ON (tools/test.sh
# passes its build-asan, where the tests and the fuzzers share their objects).
#
# Usage: tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 60 seconds, every target)
#   replay an artifact: BUILD/fuzz/TARGET BUILD/artifacts/TARGET-crash-...
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
case "$seconds" in ""|*[!0-9]*) echo "usage: tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2; exit 2 ;; esac
shift || true
# Every target that has seeds: tests/corpus/fuzz_*/ (a new target needs its folder there and its line in
# fuzz/CMakeLists.txt).
all=()
for d in tests/corpus/fuzz_*/; do all+=("$(basename "$d")"); done
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

. tools/build_lib.sh
build="${SIGHTLINE_FUZZ_BUILD:-build-fuzz}"
start=$(date +%s)
if [ "$build" = build-fuzz ]; then
  CC=clang CXX=clang++ configure "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DSIGHTLINE_FUZZ=ON \
    -DSIGHTLINE_BUILD_APP=OFF -DSIGHTLINE_BUILD_TESTS=OFF -DSIGHTLINE_BUILD_BENCH=OFF
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
echo "fuzz: built in $(( $(date +%s) - start )) s"

mkdir -p "$build/artifacts" "$build/logs" "$build/tmp"
export TMPDIR="$PWD/$build/tmp"  # the scratch folders of the targets that read files
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
final_stat() { awk -v key="stat::$2:" '$1 == key { print $2; exit }' "$1"; }  # libFuzzer's final numbers
run_one() {  # TARGET: runs it, then writes its line into $build/logs/TARGET.result
  local t="$1" corpus="$build/corpus/$1" log="$build/logs/$1.log" t0 rc=0
  mkdir -p "$corpus"
  cp tests/corpus/"$t"/* "$corpus"/
  t0=$(date +%s)
  "$build/fuzz/$t" "$corpus" -dict=fuzz/json.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 >"$log" 2>&1 || rc=$?
  local took=$(( $(date +%s) - t0 )) result="ok"
  if [ "$rc" -ne 0 ]; then
    local artifact
    artifact=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -1)
    result="FAILED (exit $rc${artifact:+, input $artifact}; log $log)"
  fi
  printf '%-20s %9s runs %5s s %6s exec/s %5s new inputs  %s\n' "$t" "$(final_stat "$log" number_of_executed_units)" \
    "$took" "$(final_stat "$log" average_exec_per_sec)" "$(final_stat "$log" new_units_added)" "$result" >"$build/logs/$t.result"
}
# As many targets at once as there are cores; each line printed in the targets' order.
parallel="$(nproc)"
running=0
for t in "${targets[@]}"; do
  rm -f "$build/logs/$t.result"
  run_one "$t" &
  running=$(( running + 1 ))
  if [ "$running" -ge "$parallel" ]; then wait -n || true; running=$(( running - 1 )); fi
done
wait
for t in "${targets[@]}"; do
  line=$(cat "$build/logs/$t.result" 2>/dev/null || echo "$t: no result")
  echo "$line"
  case "$line" in *FAILED*|*"no result"*) failed+=("$t") ;; esac
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
