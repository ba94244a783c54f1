#!/usr/bin/env bash
# Sets up the machine, builds Sightline, prints a ruling and opens the app on the board.
# Usage: tools/run.sh [MAP]   (default maps/demo.json, with marine-red attacking imp-1)
# Without a display (no DISPLAY or WAYLAND_DISPLAY: a server, CI) the app renders one frame under a
# virtual display into build/sightline-run.png instead of opening a window.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target sightline-cli sightline
map="${1:-maps/demo.json}"
pair=()
if [ "$#" -eq 0 ]; then
  pair=(--attacker marine-red --defender imp-1)
  ./build/sightline-cli cover "$map" "${pair[@]}"
else
  ./build/sightline-cli validate "$map"
fi
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/sightline "${pair[@]}" "$map"
fi
xvfb-run -a -s "-screen 0 1280x1024x24" ./build/sightline --screenshot build/sightline-run.png --size 1280x800 \
  "${pair[@]}" "$map"
echo "no display: the app rendered $map into build/sightline-run.png"
