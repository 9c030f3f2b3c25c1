#!/usr/bin/env bash
# The main job: a complete Fission game between two arena AI clients through a real arena
# server on 127.0.0.1, shown move by move. Installs and builds what is missing first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setup.sh
echo "Building arena (release)..."
cmake --preset release >/dev/null
cmake --build --preset release >/dev/null
arena="$root/build/release/arena"

move_time="${ARENA_MOVE_TIME:-1000}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

"$arena" serve fission --port 0 --warmup 1 --move-time "$move_time" --board \
  --records "$root/records" >"$work/server.log" 2>&1 &
server=$!
tail -n +1 -f --pid="$server" "$work/server.log" &

port=""
for _ in $(seq 200); do
  port="$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\) .*/\1/p' "$work/server.log")"
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.05
done
if [ -z "$port" ]; then
  echo "demo: the server did not start" >&2
  exit 1
fi

"$arena" connect fission 127.0.0.1 "$port" --move-time "$move_time" >"$work/white.out" 2>"$work/white.err" &
white=$!
sleep 0.2
"$arena" connect fission 127.0.0.1 "$port" --move-time "$move_time" >"$work/black.out" 2>"$work/black.err" &
black=$!

status=0
wait "$server" || status=$?
wait "$white" || status=$?
wait "$black" || status=$?
sleep 0.1
echo
echo "White client: $(cat "$work/white.out" "$work/white.err" | tail -n 1)"
echo "Black client: $(cat "$work/black.out" "$work/black.err" | tail -n 1)"
exit "$status"
