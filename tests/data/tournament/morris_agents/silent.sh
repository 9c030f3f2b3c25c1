#!/usr/bin/env bash
# A Morris agent that connects and never moves.
port=$ARENA_WHITE_PORT
[ "$1" = Black ] && port=$ARENA_BLACK_PORT
exec 3<>"/dev/tcp/$ARENA_HOST/$port" || exit 1
cat <&3 >/dev/null
