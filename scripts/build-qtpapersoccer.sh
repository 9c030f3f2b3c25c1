#!/usr/bin/env bash
# Builds bench/external/qtpapersoccer_bot.cpp, our course-protocol bot around the header-only
# engine of jdermont/QtPaperSoccer, against a checkout of that repository the user gives (nothing
# is downloaded; no Qt needed), and puts the engine's network (96_32_net) beside the binary, where
# the bot looks for it. Prints the binary's path. Not part of the CMake build or the tests.
#   usage: scripts/build-qtpapersoccer.sh QTPAPERSOCCER_SRC_DIR [OUT=build/external/qtps-bot]
# QTPAPERSOCCER_SRC_DIR is the checkout (or its src/). CXX and CXXFLAGS may be set; the default
# flags are those of arena's release build (-O3 -DNDEBUG, no -march=native). See docs/strength.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { sed -n '2,8p' "$0" >&2; exit 2; }
src="$1"
[ -f "$src/src/cpumctstt.h" ] && src="$src/src"
for f in cpumctstt.h game.h network.h 96_32_net; do
  [ -f "$src/$f" ] || { echo "build-qtpapersoccer: no $f in $src (a checkout of jdermont/QtPaperSoccer?)" >&2; exit 1; }
done
out="${2:-$root/build/external/qtps-bot}"
mkdir -p "$(dirname "$out")"
# -isystem: their headers' warnings are theirs; ours are checked.
# shellcheck disable=SC2086
"${CXX:-g++}" -std=c++17 ${CXXFLAGS:--O3 -DNDEBUG} -pthread -Wall -Wextra -isystem "$src" \
  "$root/bench/external/qtpapersoccer_bot.cpp" -o "$out"
cp "$src/96_32_net" "$(dirname "$out")/96_32_net"
echo "$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
