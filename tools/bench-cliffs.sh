#!/usr/bin/env bash
# The scale scenes as whole sightline-cli processes: each scene is written as a map file, then the
# median wall time of N runs of loading it and answering one question is printed.
#   walls-short  1024x1024, 200,000 walls 1 to 3 cells long, 100 figures
#   walls-long   1024x1024, 20,000 walls from edge to edge, 100 figures
#   large-64     two 64x64 figures on an empty 1024x1024 board
#   large-512    two 512x512 figures on an empty 1024x1024 board
# Usage: tools/bench-cliffs.sh [N]   (default 5 runs; needs a built build/ with sightline-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
median() {  # runs the command N times, prints the median wall time in ms
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  local sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  echo "${sorted[$(( runs / 2 ))]} ms"
}
for scene in walls-short walls-long large-64 large-512; do
  ./build/sightline-bench --scene "$scene" --write-map "$dir/$scene.json" >/dev/null
done
cli=./build/sightline-cli
for scene in walls-short walls-long; do
  map="$dir/$scene.json"
  echo "$scene: los across the board $(median $cli los "$map" --from 0.5,0.5 --to 1000.5,900.5)," \
       "cover f-0 f-1 $(median $cli cover "$map" --attacker f-0 --defender f-1)," \
       "matrix of 100 figures $(median $cli matrix "$map")"
done
for scene in large-64 large-512; do
  map="$dir/$scene.json"
  echo "$scene: cover $(median $cli cover "$map" --attacker big-a --defender big-b)," \
       "cover --json $(median $cli cover "$map" --attacker big-a --defender big-b --json)," \
       "d20 $(median $cli cover "$map" --attacker big-a --defender big-b --rules d20)," \
       "matrix $(median $cli matrix "$map")"
done
