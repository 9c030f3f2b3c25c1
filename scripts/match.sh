#!/usr/bin/env bash
# A strength match through the real course protocol: for each game an arena server on 127.0.0.1
# and two `arena connect` clients, the engine against a built-in opponent, colours alternating,
# fixed seeds. Prints every game's result and the tally.
#   usage: scripts/match.sh [random|greedy] [GAMES=20] [MOVE_TIME_MS=1000] [GAME=fission]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opponent="${1:-greedy}"
games="${2:-20}"
move_time="${3:-1000}"
game="${4:-fission}"
arena="${ARENA:-$root/build/release/arena}"
[ -x "$arena" ] || { echo "match: build arena first (cmake --preset release && cmake --build --preset release)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
wins=0 draws=0 losses=0
for ((i = 1; i <= games; i++)); do
  "$arena" serve "$game" --port 0 --warmup 0 --move-time "$move_time" --records "$work/records" \
    >"$work/server.log" 2>&1 &
  server=$!
  port=""
  for _ in $(seq 200); do
    port="$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\) .*/\1/p' "$work/server.log")"
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || { echo "match: server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
  engine=(connect "$game" 127.0.0.1 "$port" --move-time "$move_time")
  other=(connect "$game" 127.0.0.1 "$port" --move-time "$move_time" --player "$opponent" --seed "$i")
  # The first client to connect plays White: start the second only once the first is seated.
  if ((i % 2 == 1)); then first=("${engine[@]}") second=("${other[@]}") colour=White out_first=engine out_second=other
  else first=("${other[@]}") second=("${engine[@]}") colour=Black out_first=other out_second=engine; fi
  "$arena" "${first[@]}" >"$work/$out_first.out" 2>&1 &
  a=$!
  for _ in $(seq 200); do
    grep -q "^White connected" "$work/server.log" && break
    sleep 0.02
  done
  "$arena" "${second[@]}" >"$work/$out_second.out" 2>&1 &
  b=$!
  wait "$a" "$b" "$server" || true
  line="$(tail -n 1 "$work/engine.out")"
  case "$line" in *"as $colour "*) ;; *) echo "match: the engine did not get $colour in game $i" >&2 ;; esac
  case "$line" in
    VICTORY*) wins=$((wins + 1)) ;;
    TIE*) draws=$((draws + 1)) ;;
    *) losses=$((losses + 1)) ;;
  esac
  echo "game $i: engine as $colour: $line"
done
echo "engine vs $opponent: $wins wins, $draws draws, $losses losses in $games games ($move_time ms per move)"
