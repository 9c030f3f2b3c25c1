#!/usr/bin/env bash
# A course-protocol agent that connects and never moves.
exec 3<>"/dev/tcp/$1/$2" || exit 1
while IFS= read -r line <&3; do :; done
