#!/usr/bin/env bash
# A course-protocol agent that answers its turn with a line that is not a move.
exec 3<>"/dev/tcp/$1/$2" || exit 1
while IFS= read -r line <&3; do
  case "$line" in YOUR_TURN*) printf 'HELLO WORLD\n' >&3 ;; esac
done
