#!/usr/bin/env bash
# A Morris agent that connects and leaves at once (exit status 0).
port=$ARENA_WHITE_PORT
[ "$1" = Black ] && port=$ARENA_BLACK_PORT
exec 3<>"/dev/tcp/$ARENA_HOST/$port" || exit 1
exit 0
