#!/usr/bin/env bash
# Times the whole `sightline-cli matrix --json` process on a map: the median wall time of N runs.
# Usage: tools/bench-cli.sh [MAP] [N]   (default maps/bench-dense.json, 21 runs; needs a built build/)
set -euo pipefail
cd "$(dirname "$0")/.."
map="${1:-maps/bench-dense.json}"
runs="${2:-21}"
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  ./build/sightline-cli matrix "$map" --json >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
median=${sorted[$(( runs / 2 ))]}
printf 'sightline-cli matrix %s --json: median %d.%03d ms over %d runs (min %d.%03d ms)\n' \
  "$map" $((median / 1000)) $((median % 1000)) "$runs" $((sorted[0] / 1000)) $((sorted[0] % 1000))
