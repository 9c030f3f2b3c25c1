#!/usr/bin/env bash
# A Morris agent that sends text instead of a Java serialization stream.
port=$ARENA_WHITE_PORT
[ "$1" = Black ] && port=$ARENA_BLACK_PORT
exec 3<>"/dev/tcp/$ARENA_HOST/$port" || exit 1
printf 'HELLO WORLD\n' >&3
cat <&3 >/dev/null
