#!/usr/bin/env bash
# A Morris agent that wants its colour and the ports as arguments (--morris-ports args): checks
# them, then plays as arena's random player. $1 = the arena binary.
arena=$1 colour=$2
[ "$3" = --white-port ] && [ "$4" = "$ARENA_WHITE_PORT" ] && [ "$5" = --black-port ] &&
  [ "$6" = "$ARENA_BLACK_PORT" ] || exit 9
exec "$arena" mulino "$colour" --white-port "$4" --black-port "$6" --player random --seed 5
