# Sourced by the build scripts: configures a build folder the same way each time.
#
# configure DIR [CMAKE ARGS...]: Ninja where installed (for a new folder; an existing folder keeps its
# generator), ccache through CMakeLists.txt. A folder configured with another compiler than $CXX is
# made anew: CMake cannot switch compilers in place.
configure() {
  local dir="$1"
  shift
  local cache="$dir/CMakeCache.txt" want="${CXX:-}"
  if [ -f "$cache" ] && [ -n "$want" ]; then
    local have
    have=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")
    if [ -n "$have" ] && [ "$(command -v "$want")" != "$have" ] && [ "$want" != "$have" ]; then
      echo "build: $dir was configured with $have, not $want: configuring it anew"
      rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
    fi
  fi
  local generator=()
  if [ ! -f "$cache" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  cmake "${generator[@]}" -S . -B "$dir" "$@" >/dev/null
}

# Seconds since the epoch, and a phase's line for the summary.
now() { date +%s; }

# The flags of the sanitizer builds: -O1 and line tables only, which is what the sanitizers' reports
# need (clang says -gline-tables-only, g++ -g1).
sanitizer_flags() {
  if "${CXX:-c++}" --version 2>/dev/null | grep -qi clang; then echo "-O1 -gline-tables-only -DNDEBUG"
  else echo "-O1 -g1 -DNDEBUG"; fi
}
