#!/usr/bin/env bash
# Sets up the machine, builds Sightline and rules on the demo board.
# Usage: tools/run.sh [MAP]   (default maps/demo.json)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target sightline-cli
map="${1:-maps/demo.json}"
./build/sightline-cli validate "$map"
./build/sightline-cli cover "$map" --attacker marine-red --defender imp-1
./build/sightline-cli matrix "$map"
