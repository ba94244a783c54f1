#!/usr/bin/env bash
# The whole check: sets up the machine, builds everything once with clang, AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage (build-asan: the tests and the fuzzers from the
# same objects), runs the whole suite, runs each parser's fuzzer for 20 seconds (tools/fuzz.sh) and the
# threaded paths under ThreadSanitizer (tools/tsan.sh, built at low priority beside the suite and the
# fuzzers), and prints how long each phase took.
# Without clang's libFuzzer the build uses the default compiler and the fuzzers are skipped with a note.
#
# Usage: tools/test.sh           the whole check (the README's test command, and CI's)
#        tools/test.sh --quick   the inner loop: a Release build of everything (the benchmarks too)
#                                in build/ and the suite; no sanitizers, fuzzing or ThreadSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/build_lib.sh

quick=0
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  *) echo "usage: tools/test.sh [--quick]" >&2; exit 2 ;;
esac

phases=()
t_all=$(now)
t=$t_all
done_phase() {  # NAME: records the time since the last phase ended
  local end
  end=$(now)
  phases+=("$(printf '%-28s %5d s' "$1" $(( end - t )))")
  t=$end
}
summary() {
  echo "---- test.sh: time a phase ----"
  printf '%s\n' "${phases[@]}"
  printf '%-28s %5d s\n' "total" $(( $(now) - t_all ))
}
tsan_pid=""
trap 'rc=$?; [ -z "$tsan_pid" ] || kill -- -"$tsan_pid" 2>/dev/null || true; summary; exit $rc' EXIT

tools/setup.sh
done_phase "setup"

jobs="$(nproc)"
if [ "$quick" -eq 1 ]; then
  configure build -DCMAKE_BUILD_TYPE=Release -DSIGHTLINE_PCH=ON
  cmake --build build -j"$jobs"
  done_phase "build (Release)"
  ctest --test-dir build --output-on-failure -j"$jobs"
  done_phase "tests"
  exit 0
fi

# clang with libFuzzer where it links; else the default compiler, without the fuzzers.
fuzz=OFF
probe="$(mktemp -d)"
printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' >"$probe/p.cpp"
if command -v clang++ >/dev/null && command -v clang >/dev/null &&
   clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>"$probe/err"; then
  fuzz=ON
  export CC=clang CXX=clang++
else
  echo "test: clang++ cannot link libFuzzer here ($(head -1 "$probe/err" 2>/dev/null || echo 'no clang++')): the fuzzers are skipped"
fi
rm -rf "$probe"

# -O1 and line tables: what the sanitizers' reports need, at half the compile time of -O2 -g; the
# tests and the command line at -O0, half again (the engine and the app they drive stay at -O1). The
# benchmarks are left to the quick build (tools/test.sh --quick builds everything in Release).
# A unity build (eight files a compiler run; the files that need flags or a header of their own are
# compiled alone) compiles what the files share once: a third less compile time. The quick build
# compiles each file of the libraries and the tests alone, which also shows a file that forgot an
# include.
configure build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(sanitizer_flags)" \
  -DSIGHTLINE_SANITIZE=ON -DSIGHTLINE_FUZZ="$fuzz" -DSIGHTLINE_PCH=ON -DSIGHTLINE_BUILD_BENCH=OFF \
  -DSIGHTLINE_TEST_CODE_FLAGS=-O0 -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8
cmake --build build-asan -j"$jobs"
done_phase "build (sanitizers$([ "$fuzz" = ON ] && echo ', fuzzers'))"

# The ThreadSanitizer build needs nothing of the suite's: it is compiled meanwhile, at the lowest
# priority, on what the suite and the fuzzers leave idle (a window test waiting on its display, the
# last fuzzer running alone), in a process group of its own; it is run once they are done.
tsan_log=build-asan/tsan-build.log
set -m
nice -n 19 tools/tsan.sh --build >"$tsan_log" 2>&1 &
tsan_pid=$!
set +m

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
ctest --test-dir build-asan --output-on-failure -j"$jobs"
done_phase "tests"

if [ "$fuzz" = ON ]; then
  SIGHTLINE_FUZZ_BUILD=build-asan tools/fuzz.sh 20
  done_phase "fuzzers (20 s each)"
fi

tsan_rc=0
wait "$tsan_pid" || tsan_rc=$?
tsan_pid=""
cat "$tsan_log"
if [ "$tsan_rc" -ne 0 ]; then
  echo "test: the ThreadSanitizer build failed (exit $tsan_rc; its log above)" >&2
  exit 1
fi
tools/tsan.sh --run
done_phase "ThreadSanitizer, rest + run"
