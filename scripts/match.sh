#!/usr/bin/env bash
# A strength match through the real course protocol: for each game an arena server on 127.0.0.1
# with free ports and two arena agents, the engine against a built-in opponent, colours
# alternating, fixed seeds. Prints every game's result and the tally.
#   usage: scripts/match.sh [random|greedy] [GAMES=20] [MOVE_TIME_MS=1000] [GAME=fission] [DEPTH]
# GAME is fission, murus (line protocol: `arena serve` + `arena connect`) or morris (Java
# serialization: `arena serve morris` + `arena mulino`). With DEPTH the engine searches to that
# depth instead of using the clock (reproducible games).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opponent="${1:-greedy}"
games="${2:-20}"
move_time="${3:-1000}"
game="${4:-fission}"
depth="${5:-}"
arena="${ARENA:-$root/build/release/arena}"
[ -x "$arena" ] || { echo "match: build arena first (cmake --preset release && cmake --build --preset release)" >&2; exit 1; }
case "$game" in fission | murus | morris) ;; *) echo "match: GAME must be fission, murus or morris" >&2; exit 2 ;; esac

work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
engine_opts=(--move-time "$move_time")
[ -n "$depth" ] && engine_opts+=(--depth "$depth")

# Starts the server in the background and waits for its "listening on" line (in $listening).
start_server() {
  if [ "$game" = morris ]; then
    "$arena" serve morris --white-port 0 --black-port 0 --move-time "$move_time" \
      --records "$work/records" >"$work/server.log" 2>&1 &
  else
    "$arena" serve "$game" --port 0 --warmup 0 --move-time "$move_time" \
      --records "$work/records" >"$work/server.log" 2>&1 &
  fi
  server=$!
  listening=""
  for _ in $(seq 200); do
    listening="$(grep -m1 'listening on' "$work/server.log" || true)"
    [ -n "$listening" ] && return
    sleep 0.05
  done
  echo "match: server did not start" >&2
  cat "$work/server.log" >&2
  exit 1
}

# Plays one game, the engine as $colour; the opponent gets seed $1.
play_morris() {
  local other=White
  [ "$colour" = White ] && other=Black
  local ports=(--white-port "$(sed -n 's/.*:\([0-9][0-9]*\) (White).*/\1/p' <<<"$listening")"
    --black-port "$(sed -n 's/.*:\([0-9][0-9]*\) (Black).*/\1/p' <<<"$listening")")
  "$arena" mulino "$colour" "${ports[@]}" "${engine_opts[@]}" >"$work/engine.out" 2>"$work/engine.err" &
  local a=$!
  "$arena" mulino "$other" "${ports[@]}" --player "$opponent" --seed "$1" >"$work/other.out" 2>&1 &
  wait "$a" "$!" "$server" || true
}

play_line() {
  local port
  port="$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\) .*/\1/p' <<<"$listening")"
  local engine=(connect "$game" 127.0.0.1 "$port" "${engine_opts[@]}")
  local other=(connect "$game" 127.0.0.1 "$port" --move-time "$move_time" --player "$opponent" --seed "$1")
  local first=("${engine[@]}") second=("${other[@]}") out_first=engine out_second=other
  if [ "$colour" = Black ]; then first=("${other[@]}") second=("${engine[@]}") out_first=other out_second=engine; fi
  # The first client to connect plays White: start the second only once the first is seated.
  "$arena" "${first[@]}" >"$work/$out_first.out" 2>&1 &
  local a=$!
  for _ in $(seq 200); do
    grep -q "^White connected" "$work/server.log" && break
    sleep 0.02
  done
  "$arena" "${second[@]}" >"$work/$out_second.out" 2>&1 &
  wait "$a" "$!" "$server" || true
  case "$(tail -n 1 "$work/engine.out")" in *"as $colour "*) ;; *) echo "match: the engine did not get $colour in game $i" >&2 ;; esac
}

wins=0 draws=0 losses=0
for ((i = 1; i <= games; i++)); do
  if ((i % 2 == 1)); then colour=White; else colour=Black; fi
  start_server
  if [ "$game" = morris ]; then play_morris "$i"; else play_line "$i"; fi
  result="$(tail -n 1 "$work/engine.out")"
  case "$result" in
    VICTORY*) wins=$((wins + 1)) ;;
    TIE* | DRAW*) draws=$((draws + 1)) ;;
    *) losses=$((losses + 1)) ;;
  esac
  echo "game $i: engine as $colour: $result"
done
echo "engine vs $opponent in $game: $wins wins, $draws draws, $losses losses in $games games ($move_time ms per move${depth:+, depth $depth})"
