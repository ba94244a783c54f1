#!/usr/bin/env bash
# Sightline's sight lines beside the peer methods of ../shared/peers/ on the same files, in one run:
# builds the peers' bench_core (g++ -O3), makes the dense, sparse and open boards with their
# genmap.js (node, seed 12345), then runs Sightline (build/sightline-bench-peers) and the peers turn
# about, ROUNDS times, and prints the median of each method's medians in ms per 100k queries, with
# what each answered: the blocked count of each, and how often Sightline agrees with the peers'
# question asked exactly (they differ only where walls are touched and none crossed, which
# Sightline's rule weighs by design; the script fails if a difference crosses a wall).
# Usage: tools/bench-peers.sh [ROUNDS]   (default 3; needs build/sightline-bench-peers and node)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
peers=../shared/peers
out=build/peers
[ -x build/sightline-bench-peers ] || { echo "bench-peers: build build/sightline-bench-peers first" >&2; exit 2; }
command -v node >/dev/null || { echo "bench-peers: node is needed for the peers' genmap.js" >&2; exit 2; }
mkdir -p "$out"
[ -x "$out/bench_core" ] || g++ -std=c++17 -O3 -DNDEBUG -w "$peers/bench_core.cpp" -o "$out/bench_core" 2>"$out/build.log" || { cat "$out/build.log" >&2; exit 1; }
declare -A walls=([dense]=5000 [sparse]=500 [open]=100)
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for board in dense sparse open; do
  map="$out/$board.json"
  [ -f "$map" ] || node "$peers/genmap.js" "$map" "${walls[$board]}" 100000 1000 12345 >/dev/null
  ours=() grid=() rtree=()
  for _ in $(seq "$rounds"); do
    mine="$(build/sightline-bench-peers "$map" --repeat 5)" || { echo "$mine" >&2; echo "bench-peers: Sightline and the peers differ where a wall is crossed" >&2; exit 1; }
    ours+=("$(awk '/^Sightline/ { print $(NF-7) }' <<<"$mine")")
    peer="$("$out/bench_core" "$map" 5)"
    grid+=("$(awk '/^uniform grid/ { print $(NF-7) }' <<<"$peer")")
    rtree+=("$(awk '/satisfies/ { print $(NF-7) }' <<<"$peer")")
  done
  o=$(printf '%s\n' "${ours[@]}" | median)
  g=$(printf '%s\n' "${grid[@]}" | median)
  r=$(printf '%s\n' "${rtree[@]}" | median)
  # What each method answered (blocked queries of the 100k), so that a faster number is never a
  # different question: the peers count a line that only touches a wall, Sightline does not.
  oc=$(awk '/^Sightline/ { sub("check=", "", $NF); print $NF }' <<<"$mine")
  gc=$(awk '/^uniform grid/ { sub("check=", "", $NF); print $NF }' <<<"$peer")
  rc=$(awk '/satisfies/ { sub("check=", "", $NF); print $NF }' <<<"$peer")
  printf '%-7s Sightline %7.2f ms   uniform grid walk %7.2f ms   R-tree + own predicate %7.2f ms   (per 100k; Sightline / grid %.2f)\n' \
    "$board" "$o" "$g" "$r" "$(awk -v a="$o" -v b="$g" 'BEGIN { print a / b }')"
  printf '        blocked: Sightline %s, uniform grid %s, R-tree %s\n' "$oc" "$gc" "$rc"
  printf '        %s\n' "$(grep "^the peers' question" <<<"$mine")"
done
