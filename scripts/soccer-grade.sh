#!/usr/bin/env bash
# The Paper Soccer course's grading, through `arena soccer-referee`: the bot against each
# reference difficulty in both seats with seed 42 (10 / 15 / 20 points a win at difficulty
# 0 / 1 / 2, 90 in all), then difficulty 2 against difficulty 0 in ten seeded games (seats
# alternate). The referee's exit status tells the winner (61: player 1, 62: player 2), as the
# course's grader read it.
#   usage: scripts/soccer-grade.sh [BOT_COMMAND]       (default: build/release/bot)
#   env:   ARENA=path/to/arena  TIME=seconds per turn (10)  KEEP=dir to keep logs and records
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
arena="${ARENA:-$root/build/release/arena}"
bot="${1:-$root/build/release/bot}"
time_s="${TIME:-10}"
[ -x "$arena" ] || { echo "soccer-grade: build arena first (cmake --preset release && cmake --build --preset release)" >&2; exit 1; }
if [ -n "${KEEP:-}" ]; then work="$KEEP"; mkdir -p "$work"; else work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT; fi

# referee NAME P1 P2: plays one game in its own directory; prints 1 or 2, the winning player.
referee() {
  local dir="$work/$1"
  mkdir -p "$dir"
  local status=0
  "$arena" soccer-referee "$2" "$3" -t "$time_s" --quiet-bots --log "$dir/viewer_log" \
    --records "$dir" >"$dir/referee.out" 2>&1 || status=$?
  case "$status" in
    61) echo 1 ;;
    62) echo 2 ;;
    *) echo "soccer-grade: the referee failed (status $status) in $dir:" >&2; cat "$dir/referee.out" >&2; exit 1 ;;
  esac
}

how() { sed -n '1p' "$work/$1/referee.out"; }

seed=42
points=0
for level in 0 1 2; do
  worth=$((10 + 5 * level))
  ref="$arena soccer-ref silent $level $seed"
  for seat in 1 2; do
    name="bot-p$seat-vs-level$level"
    if [ "$seat" = 1 ]; then winner="$(referee "$name" "$bot A $seed" "$ref")"
    else winner="$(referee "$name" "$ref" "$bot B $seed")"; fi
    if [ "$winner" = "$seat" ]; then
      points=$((points + worth)); verdict="win  +$worth"
    else
      verdict="loss   0"
    fi
    printf 'bot as player %s vs difficulty %s: %s   (%s)\n' "$seat" "$level" "$verdict" "$(how "$name")"
  done
done
echo "bot: $points / 90 points"

wins=0
for i in $(seq 1 10); do
  s=$((seed + i))
  name="level2-vs-level0-$i"
  if ((i % 2 == 1)); then winner="$(referee "$name" "$arena soccer-ref silent 2 $s" "$arena soccer-ref silent 0 $s")"; want=1
  else winner="$(referee "$name" "$arena soccer-ref silent 0 $s" "$arena soccer-ref silent 2 $s")"; want=2; fi
  [ "$winner" = "$want" ] && wins=$((wins + 1))
  printf 'difficulty 2 as player %s vs difficulty 0, seed %s: %s   (%s)\n' "$want" "$s" \
    "$([ "$winner" = "$want" ] && echo win || echo loss)" "$(how "$name")"
done
echo "difficulty 2 beat difficulty 0 in $wins of 10 games"
if [ -n "${KEEP:-}" ]; then echo "logs and records in $work"; fi
