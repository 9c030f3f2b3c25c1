#!/usr/bin/env bash
# Measures the engine levels (docs/levels.md): each level against the next in a match from the
# opening book, for one game or all four. Level 5 (the full engine) plays at 100 ms a move; a
# move may take 300 ms more before it loses on time, so that a loaded machine does not decide
# games (it still makes level 5 search less). Fission plays by the course server's rule: more
# stones wins at the move limit.
#   usage: scripts/levels.sh [GAME|all] [PAIRS=20]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
arena="${ARENA:-$root/build/release/arena}"
[ -x "$arena" ] || { echo "levels: build arena first (bash scripts/demo.sh)" >&2; exit 1; }
games="${1:-all}"
pairs="${2:-20}"
[ "$games" = all ] && games="fission murus morris soccer"
for game in $games; do
  rules=()
  [ "$game" = fission ] && rules=(--limit-rule more-stones)
  for low in 1 2 3 4; do
    high=$((low + 1))
    line=$("$arena" match "$game" "level$high: engine level=$high" "level$low: engine level=$low" \
      --move-time 100 --time-margin 300 "${rules[@]}" --pairs "$pairs" -j 2 --seed 1 --book "$root/data/books/$game.txt" | grep "^Pairs" | tail -1)
    echo "$game level $high vs $low: $line"
  done
done
