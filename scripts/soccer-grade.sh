#!/usr/bin/env bash
# The Paper Soccer course's grading: `arena handin grade soccer` (docs/handin.md), the bot against
# the reference bot at difficulties 0, 1 and 2 in both seats, seed 42, 10 / 15 / 20 points a win,
# 90 in all, through the course's referee in the sandbox.
#   usage: scripts/soccer-grade.sh [HANDIN|BOT_COMMAND] [arena handin grade options...]
#     HANDIN: a hand-in (folder, zip, tar...), checked and built first as `arena handin check` does;
#     BOT_COMMAND: a bot program (an executable file, copied into a hand-in folder of its own), or a
#     command such as "java -cp /abs/dir Bot" (absolute paths the sandbox shows: not /tmp), given
#     the course's arguments (A|B and the seed); default: build/release/bot.
#   env:   ARENA=path/to/arena  TIME=seconds per turn (10)  LEVELS=engine levels too (none)
#          KEEP=dir to keep the hand-in's files (default: a temporary folder)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
arena="${ARENA:-$root/build/release/arena}"
bot="${1:-$root/build/release/bot}"
[ $# -gt 0 ] && shift
[ -x "$arena" ] || { echo "soccer-grade: build arena first (cmake --preset release && cmake --build --preset release)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
handin="$bot"
if [ -d "$bot" ] || { [ -f "$bot" ] && [ ! -x "$bot" ]; }; then
  :  # a hand-in
else
  # A bot: a folder whose prebuilt `bot` is it (the course's convention). A program is copied in,
  # since the sandbox hides most of the machine (/tmp among it); a command is run as it is.
  handin="$work/handin"
  mkdir -p "$handin"
  if [ -f "$bot" ]; then
    cp "$bot" "$handin/bot"
  else
    printf '#!/bin/sh\nexec %s "$@"\n' "$bot" >"$handin/bot"
  fi
  chmod +x "$handin/bot"
fi
out="${KEEP:-$work/out}"
status=0
"$arena" handin grade soccer "$handin" --out "$out" --move-time "$(awk -v t="${TIME:-10}" 'BEGIN { printf "%d", t * 1000 }')" \
  --levels "${LEVELS:-none}" "$@" || status=$?
exit "$status"
