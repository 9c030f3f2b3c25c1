#!/usr/bin/env bash
# A Morris agent ($1 = White or Black; the ports in the environment) that connects, reads the
# stream header of its first state and dies of SIGSEGV.
port=$ARENA_WHITE_PORT
[ "$1" = Black ] && port=$ARENA_BLACK_PORT
exec 3<>"/dev/tcp/$ARENA_HOST/$port" || exit 1
head -c 4 <&3 >/dev/null
kill -SEGV $$
