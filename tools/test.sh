#!/usr/bin/env bash
# Sets up the machine, builds everything with AddressSanitizer and UndefinedBehaviorSanitizer, and
# runs the whole test suite; then runs each parser's fuzzer for 20 seconds (tools/fuzz.sh, when clang
# is present) and the threaded paths under ThreadSanitizer (tools/tsan.sh).
# Usage: tools/test.sh   (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSIGHTLINE_SANITIZE=ON
cmake --build build-asan -j"$(nproc)"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
tools/fuzz.sh 20
tools/tsan.sh
