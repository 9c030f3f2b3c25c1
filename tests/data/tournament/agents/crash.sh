#!/usr/bin/env bash
# A course-protocol agent that connects, then dies of SIGSEGV when its first turn comes.
exec 3<>"/dev/tcp/$1/$2" || exit 1
while IFS= read -r line <&3; do
  case "$line" in YOUR_TURN*) kill -SEGV $$ ;; esac
done
