#!/usr/bin/env bash
# A Paper Soccer bot that answers its first turn (S as player 1, M as player 2) with a line
# that is not a turn.
read -r line
printf 'HELLO WORLD\n'
cat >/dev/null
