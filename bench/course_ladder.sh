#!/usr/bin/env bash
# The ladder's throughput and the server's own cost per game (docs/ladder.md, "Figures"): a Paper
# Soccer course of STUDENTS students whose hand-ins are instant agents (arena's random player, so
# a game's time is all overhead: the referee, the sandbox, the worker and the server), served with
# GAMES games at once on this machine for SECONDS seconds. Prints games played, games per hour
# and per core, the mean wall time of a game at the worker, and the server process's CPU time per
# game (HTTP, database, matchmaking and ratings: the cost outside the games themselves).
# Usage: bench/course_ladder.sh ARENA_BINARY [STUDENTS=12] [GAMES=1] [SECONDS=120]
set -euo pipefail
arena="$(realpath "$1")"
students="${2:-12}"
games="${3:-1}"
seconds="${4:-120}"
work="$(mktemp -d)"
chmod 755 "$work"
trap 'kill "$server" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

{
  echo "login,name,role"
  echo "prof,Prof,staff"
  for i in $(seq 1 "$students"); do echo "s$i,Student $i,student"; done
} >"$work/roster.csv"
"$arena" course init "$work/c" --game soccer --roster "$work/roster.csv" >/dev/null
"$arena" course serve "$work/c" --port 0 --no-grade --local-games "$games" --move-time 100 \
  >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do
  grep -q "http://127.0.0.1:" "$work/serve.log" && break
  sleep 0.1
done
url="$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.log" | head -1)"

# One hand-in per student: a bot program that is arena's random player (its own seed).
for i in $(seq 1 "$students"); do
  mkdir -p "$work/h$i/student"
  printf '#!/bin/sh\nexec %s soccer-bot --silent --player random --seed %d\n' "$arena" "$i" \
    >"$work/h$i/student/bot"
  chmod 755 "$work/h$i/student/bot"
  (cd "$work/h$i" && tar -czf ../h$i.tar.gz student)
  "$arena" submit "$url" "$work/h$i.tar.gz" --token "$("$arena" course token "$work/c" "s$i")" \
    --no-wait >/dev/null
done
prof="$("$arena" course token "$work/c" prof)"
played() {
  curl -s -H "Authorization: Bearer $prof" "${url}api/ladder" |
    python3 -c 'import json,sys; print(sum(w["games"] for w in json.load(sys.stdin)["workers"]))'
}
cpu_seconds() {  # utime + stime of a process, in seconds
  awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}
# Wait until every hand-in is checked and the ladder plays, then measure.
for _ in $(seq 600); do
  [ "$(played)" -gt 0 ] && break
  sleep 0.5
done
start_games="$(played)"
start_cpu="$(cpu_seconds "$server")"
sleep "$seconds"
end_games="$(played)"
end_cpu="$(cpu_seconds "$server")"
n=$((end_games - start_games))
cores="$(nproc)"
python3 - "$n" "$seconds" "$cores" "$start_cpu" "$end_cpu" "$games" "$work/c/worker.log" <<'PY'
import re, sys
n, seconds, cores = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
cpu = float(sys.argv[5]) - float(sys.argv[4])
walls = [float(m) for m in re.findall(r"done: .*?, ([0-9.]+) s$", open(sys.argv[7]).read(), re.M)]
print(f"games played in {seconds:.0f} s with {sys.argv[6]} at once: {n}")
if n:
    print(f"games per hour: {n * 3600 / seconds:.0f} ({n * 3600 / seconds / cores:.0f} per core, {cores} cores)")
    print(f"server CPU per game: {cpu / n * 1000:.1f} ms")
if walls:
    print(f"a game's wall time at the worker (instant agents: all overhead): mean {sum(walls) / len(walls):.2f} s over {len(walls)} games")
PY
