#!/usr/bin/env bash
# The scale scenes as whole sightline-cli processes: each scene is written as a map file, then the
# median wall time of N runs of loading it and answering one question is printed.
#   walls-short  1024x1024, 200,000 walls 1 to 3 cells long, 100 figures
#   walls-long   1024x1024, 20,000 walls from edge to edge, 100 figures
#   large-64     two 64x64 figures on an empty 1024x1024 board
#   large-512    two 512x512 figures on an empty 1024x1024 board
# and MazeWorld battles replayed (mazeworld run --json):
#   joins-4000       4,000 creatures joining one by one in stealth, on Sides that hold their enemies
#   combatants-100k  100,000 creatures in stealth at the start, three teams over four Sides
#   turns-50k        20,000 creatures, 50,000 turns (100,000 events)
# and the large figures' whole-board views (each run with every sightline-cli given, side by side):
#   sight-4-walls    a 4x4 figure's sight, 1024x1024, 40 short walls near it
#   sight-8          an 8x8 figure's sight, empty 1024x1024 (refused: 81 corners, at most 64 there)
#   sight-64-small   a 64x64 figure's sight, empty 100x100
#   heat-64          the heat map against one 64x64 attacker, empty 1024x1024
#   cover-64-walls   cover between two 64x64 figures with 200 short walls between (Doom, then d20)
#   cover-64-cells   the same with 400 blocking cells between
# Usage: tools/bench-cliffs.sh [--views] [N] [OTHER_CLI...]   (default 5 runs; needs a built build/
#        with sightline-bench; each OTHER_CLI, an older build say, is timed beside
#        build/sightline-cli on the large figures' views; --views times those alone)
set -euo pipefail
cd "$(dirname "$0")/.."
views_only=0
if [ "${1:-}" = "--views" ]; then views_only=1; shift; fi
runs="${1:-5}"
others=("${@:2}")
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
cli=./build/sightline-cli
if [ "$views_only" -eq 0 ]; then
for scene in walls-short walls-long large-64 large-512; do
  ./build/sightline-bench --scene "$scene" --write-map "$dir/$scene.json" >/dev/null
done
# lint exits 1 when it finds problems: timed as a command that passes then.
lint() { "$cli" lint "$1" >/dev/null || [ $? -eq 1 ]; }
awk 'BEGIN { printf "{\"format\": \"sightline-map\", \"version\": 1, \"grid\": {\"width\": 1024, \"height\": 1024}, \"walls\": ["
  for (i = 0; i < 1000; i++) printf "%s{\"id\": \"w%d\", \"from\": [0, 512], \"to\": [1024, 512]}", (i ? ", " : ""), i
  printf "]}\n" }' >"$dir/walls-same.json"
echo "walls-same (1,000 identical board-wide walls): lint $(median lint "$dir/walls-same.json")"
for scene in walls-short walls-long; do
  map="$dir/$scene.json"
  echo "$scene: lint $(median lint "$map")"
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
# MazeWorld battles, written with awk (one line a combatant or event).
battle() {  # FILE COMBATANTS EVENTS KIND: KIND joins (every event a join in stealth) or turns
  awk -v n="$2" -v e="$3" -v kind="$4" 'BEGIN {
    printf "{\"format\": \"sightline-battle\", \"version\": 1, \"variant\": \"ua\", \"seed\": 1,\n"
    printf " \"sides\": {\"1\": \"Wooden barrel\", \"2\": null, \"3\": null, \"4\": null},\n \"combatants\": ["
    for (i = 0; i < n; i++) printf "%s{\"id\": \"c%d\", \"team\": \"t%d\", \"side\": %d, \"agility\": 2, \"initiative\": %d, \"stealth\": true}\n", (i ? "," : ""), i, i % 3, 1 + i % 4, i
    printf "],\n \"events\": ["
    for (i = 0; i < e; i++) {
      if (kind == "joins") printf "%s{\"do\": \"join\", \"combatant\": {\"id\": \"j%d\", \"team\": \"t%d\", \"side\": %d, \"agility\": 2, \"initiative\": %d, \"stealth\": true}}\n", (i ? "," : ""), i, i % 3, 1 + i % 4, i
      else if (i % 2) printf ",{\"do\": \"next_turn\"}\n"
      else printf "%s{\"do\": \"declare\", \"who\": \"c%d\", \"action\": \"combat\"}\n", (i ? "," : ""), i % n
    }
    printf "]}\n" }' >"$1"
}
battle "$dir/joins-4000.json" 1 4000 joins
battle "$dir/combatants-100k.json" 100000 1 turns
battle "$dir/turns-50k.json" 20000 100000 turns
for scene in joins-4000 combatants-100k turns-50k; do
  echo "mazeworld $scene: run --json $(median $cli mazeworld run "$dir/$scene.json" --json)," \
       "run --players --log $(median $cli mazeworld run "$dir/$scene.json" --players --log)"
done
fi
# The large figures' views, written with awk; a refusal (exit status 1) is timed as an answer.
# A run stopped by `timeout` (status 124, after 60 s) is timed as it stood then.
answer() { "$@" >/dev/null 2>&1 || { local rc=$?; [ "$rc" -eq 1 ] || [ "$rc" -eq 124 ]; }; }
figure_map() {  # FILE W H FIGURE_SIZE WALLS: WALLS short walls near a figure at (500, 500) or (10, 10)
  awk -v w="$2" -v h="$3" -v s="$4" -v n="$5" 'BEGIN {
    at = (w > 200) ? 500 : 10
    printf "{\"format\": \"sightline-map\", \"version\": 1, \"grid\": {\"width\": %d, \"height\": %d},", w, h
    printf " \"figures\": [{\"id\": \"big\", \"cell\": [%d, %d], \"size\": [%d, %d], \"side\": \"a\"}], \"walls\": [", at, at, s, s
    for (i = 0; i < n; i++) {
      if (i < n / 2) printf "%s{\"id\": \"w%d\", \"from\": [%d, 470], \"to\": [%d, 470]}", (i ? ", " : ""), i, 480 + 3 * i, 481 + 3 * i
      else printf ", {\"id\": \"w%d\", \"from\": [470, %d], \"to\": [470, %d]}", i, 480 + 3 * (i - n / 2), 481 + 3 * (i - n / 2)
    }
    printf "]}\n" }' >"$1"
}
figure_map "$dir/sight-4-walls.json" 1024 1024 4 40
figure_map "$dir/sight-8.json" 1024 1024 8 0
figure_map "$dir/sight-64-small.json" 100 100 64 0
figure_map "$dir/heat-64.json" 1024 1024 64 0
awk 'BEGIN { srand(7)
  printf "{\"format\": \"sightline-map\", \"version\": 1, \"grid\": {\"width\": 1024, \"height\": 1024},"
  printf " \"figures\": [{\"id\": \"big-a\", \"cell\": [100, 100], \"size\": [64, 64]}, {\"id\": \"big-b\", \"cell\": [400, 100], \"size\": [64, 64]}], \"walls\": ["
  for (i = 0; i < 200; i++) { x = 180 + int(rand() * 201); y = 100 + int(rand() * 64); printf "%s{\"id\": \"w%d\", \"from\": [%d, %d], \"to\": [%d, %d]}", (i ? ", " : ""), i, x, y, x + int(rand() * 2), y + 1 }
  printf "]}\n" }' >"$dir/cover-64-walls.json"
awk 'BEGIN { srand(7)
  printf "{\"format\": \"sightline-map\", \"version\": 1, \"grid\": {\"width\": 1024, \"height\": 1024},"
  printf " \"figures\": [{\"id\": \"big-a\", \"cell\": [100, 100], \"size\": [64, 64]}, {\"id\": \"big-b\", \"cell\": [400, 100], \"size\": [64, 64]}], \"terrain\": ["
  for (i = 0; i < 400; i++) printf "%s{\"kind\": \"blocking\", \"cells\": [[%d, %d]]}", (i ? ", " : ""), 180 + int(rand() * 201), 100 + int(rand() * 64)
  printf "]}\n" }' >"$dir/cover-64-cells.json"
views() {  # CLI: one line of the views' medians
  echo "$1: sight-4-walls $(median answer "$1" visibility "$dir/sight-4-walls.json" --figure big)," \
       "sight-8 $(median answer "$1" visibility "$dir/sight-8.json" --figure big)," \
       "sight-64-small $(median answer "$1" visibility "$dir/sight-64-small.json" --figure big)," \
       "heat-64 $(median answer timeout 60 "$1" heatmap "$dir/heat-64.json" --against a)," \
       "cover-64-walls $(median answer timeout 60 "$1" cover "$dir/cover-64-walls.json" --attacker big-a --defender big-b)," \
       "d20 $(median answer timeout 60 "$1" cover "$dir/cover-64-walls.json" --attacker big-a --defender big-b --rules d20)," \
       "cover-64-cells $(median answer timeout 60 "$1" cover "$dir/cover-64-cells.json" --attacker big-a --defender big-b)," \
       "d20 $(median answer timeout 60 "$1" cover "$dir/cover-64-cells.json" --attacker big-a --defender big-b --rules d20)"
}
for c in "$cli" "${others[@]}"; do views "$c"; done
