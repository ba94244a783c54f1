#!/usr/bin/env bash
# Builds the threaded paths with ThreadSanitizer in build-tsan (the libraries and
# sightline_thread_tests: tests/core/test_threads.cpp, the matrix with 1, 2, 4 and 8 threads and the
# cover heat map with 1, 2 and 4, under every game, on the dense benchmark board and on random
# boards; and tests/net/test_server.cpp, the table's server on a thread beside its clients) and runs them. Exits 1 on a data
# race or a failed test. The app is not built.
#
# Usage: tools/tsan.sh           build, then run (from anywhere)
#        tools/tsan.sh --build   only build (tools/test.sh builds it beside the suite, at low priority)
#        tools/tsan.sh --run     only run what --build built
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
case "$mode" in
  all|--build|--run) ;;
  *) echo "usage: tools/tsan.sh [--build|--run]" >&2; exit 2 ;;
esac

. tools/build_lib.sh
build=build-tsan
start=$(date +%s)
if [ "$mode" != --run ]; then
configure "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(sanitizer_flags)" \
  -DSIGHTLINE_BUILD_APP=OFF -DSIGHTLINE_BUILD_TESTS=ON -DSIGHTLINE_BUILD_BENCH=OFF -DSIGHTLINE_PCH=ON -DSIGHTLINE_TEST_CODE_FLAGS=-O0 \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread"
cmake --build "$build" -j"$(nproc)" --target sightline_thread_tests sightline_net_tests
echo "tsan: built in $(( $(date +%s) - start )) s"
fi
[ "$mode" != --build ] || exit 0
built=$(date +%s)

export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
"$build/tests/sightline_thread_tests" "[threads]"
# The table's server on its own thread beside the test's clients (tests/net/test_server.cpp).
"$build/tests/sightline_net_tests" "[net-server]"
echo "tsan: no data race; ran in $(( $(date +%s) - built )) s"
