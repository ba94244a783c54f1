#!/usr/bin/env bash
# Installs the Debian packages Sightline needs to build, run and test. Safe to run twice.
set -euo pipefail

packages=(
  build-essential cmake pkg-config ninja-build ccache   # ninja and ccache: faster builds (tools/build_lib.sh)
  libboost-dev
  libssl-dev      # SHA-256 (OpenSSL EVP) for the MazeWorld commitments
  nlohmann-json3-dev libcli11-dev catch2
  libsfml-dev libimgui-dev libstb-dev
  libwebp-dev
  libqrencode-dev # QR codes of a hosted table's links in the app
  xvfb xauth xdotool
  clang libclang-rt-dev   # tools/fuzz.sh: clang++ and libFuzzer (libclang_rt.fuzzer, only recommended by clang)
  fonts-dejavu-core
  chromium        # the players' page is tested in Debian's Chromium, headless (tests/web)
)
# Node.js and npm drive that browser (puppeteer-core, tests/web/package.json); Debian's when none is there.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then packages+=(nodejs npm); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all packages present"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The browser tests' driver, from the npm registry, as the lock file pins it (no browser download).
web="$(cd "$(dirname "$0")/.." && pwd)/tests/web"
if [ ! -d "$web/node_modules/puppeteer-core" ] || [ "$web/package-lock.json" -nt "$web/node_modules" ]; then
  (cd "$web" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi
