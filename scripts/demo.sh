#!/usr/bin/env bash
# The main job: a short double round-robin of arena's built-in agents in every game arena can run
# tournaments of, each game through the course's real protocol (a course server and two agent
# processes on 127.0.0.1). Ends with the standings and the folder of records. Installs and builds
# what is missing first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setup.sh
echo "Building arena (release)..."
cmake --preset release >/dev/null
cmake --build --preset release >/dev/null
arena="$root/build/release/arena"
# The Morris endgame databases in the cache folder (docs/endgames.md): built once, a few minutes;
# afterwards only checked.
"$arena" endgames build morris

move_time="${ARENA_MOVE_TIME:-300}"  # ms per move; the courses used 1000 (Fission) and more
engine_time=$(( move_time * 4 / 5 ))
stamp="$(date +%Y%m%d-%H%M%S)"
folders=()
for game in $("$arena" tournament --list-games); do
  dir="$root/tournaments/demo-$game-$stamp"
  extra=()
  # Paper Soccer also has the course's reference bots.
  [ "$game" = soccer ] && extra=(-a "ref1: soccer-ref 1")
  echo
  echo "=== $game: engine (by time and at depth 3), greedy and random${extra:+ and a reference bot}, every pair twice with colours swapped"
  "$arena" tournament "$game" --move-time "$move_time" --warmup 0 --seed 1 \
    -a "engine: engine time=$engine_time" -a "depth3: engine depth=3" -a "greedy: greedy" \
    -a "random: random" "${extra[@]}" \
    -o "$dir"
  folders+=("$dir")
done

echo
echo "Event folders (standings.md, results.json, journal.jsonl, games/ with every game's record):"
for dir in "${folders[@]}"; do echo "  $dir"; done
