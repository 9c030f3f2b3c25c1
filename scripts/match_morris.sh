#!/usr/bin/env bash
# Morris games through the course's real protocol (Java object serialization): for each game an
# `arena serve morris` on 127.0.0.1 with free ports and two `arena mulino` agents, our engine
# against a built-in opponent, colours alternating, fixed seeds. Prints every game and the tally.
#   usage: scripts/match_morris.sh [random|greedy] [GAMES=4] [MOVE_TIME_MS=1000] [DEPTH]
# With DEPTH the engine searches to that depth instead of using the clock (reproducible games).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opponent="${1:-greedy}"
games="${2:-4}"
move_time="${3:-1000}"
depth="${4:-}"
arena="${ARENA:-$root/build/release/arena}"
[ -x "$arena" ] || { echo "match: build arena first (cmake --preset release && cmake --build --preset release)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
wins=0 draws=0 losses=0
engine_opts=(--move-time "$move_time")
[ -n "$depth" ] && engine_opts+=(--depth "$depth")
for ((i = 1; i <= games; i++)); do
  "$arena" serve morris --white-port 0 --black-port 0 --move-time "$move_time" \
    --records "$work/records" >"$work/server.log" 2>&1 &
  server=$!
  line=""
  for _ in $(seq 200); do
    line="$(grep -m1 'listening on' "$work/server.log" || true)"
    [ -n "$line" ] && break
    sleep 0.05
  done
  [ -n "$line" ] || { echo "match: server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
  wport="$(sed -n 's/.*:\([0-9][0-9]*\) (White).*/\1/p' <<<"$line")"
  bport="$(sed -n 's/.*:\([0-9][0-9]*\) (Black).*/\1/p' <<<"$line")"
  if ((i % 2 == 1)); then colour=White; other=Black; else colour=Black; other=White; fi
  ports=(--white-port "$wport" --black-port "$bport")
  "$arena" mulino "$colour" "${ports[@]}" "${engine_opts[@]}" >"$work/engine.out" 2>"$work/engine.err" &
  a=$!
  "$arena" mulino "$other" "${ports[@]}" --player "$opponent" --seed "$i" >"$work/other.out" 2>&1 &
  b=$!
  wait "$a" "$b" "$server" || true
  result="$(tail -n 1 "$work/engine.out")"
  case "$result" in
    VICTORY*) wins=$((wins + 1)) ;;
    DRAW*) draws=$((draws + 1)) ;;
    *) losses=$((losses + 1)) ;;
  esac
  echo "game $i: engine as $colour: $result"
done
echo "engine vs $opponent: $wins wins, $draws draws, $losses losses in $games games ($move_time ms per move${depth:+, depth $depth})"
