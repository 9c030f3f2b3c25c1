#!/usr/bin/env bash
# The course server under load (docs/course.md, "Figures"): a course of STUDENTS students with
# HANDINS accepted hand-ins, then CLIENTS clients polling the leaderboard for SECONDS seconds with
# wrk (Debian's wrk), on 127.0.0.1. Prints wrk's requests/s and latency percentiles, and the
# server's memory (VmRSS and VmHWM) before and after.
# Usage: bench/course_load.sh ARENA_BINARY [STUDENTS=300] [HANDINS=3000] [CLIENTS=300] [SECONDS=20]
set -euo pipefail
arena="$(realpath "$1")"
students="${2:-300}"
handins="${3:-3000}"
clients="${4:-300}"
seconds="${5:-20}"
command -v wrk >/dev/null || { echo "course_load: wrk is missing (apt-get install wrk)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

{
  echo "login,name,role"
  echo "prof,Prof,staff"
  for i in $(seq 1 "$students"); do echo "s$i,Student $i,student"; done
} >"$work/roster.csv"
"$arena" course init "$work/c" --game soccer --roster "$work/roster.csv" >/dev/null
# Hand-ins written straight into the database (the load is on reading them, not checking them).
python3 - "$work/c/course.db" "$students" "$handins" <<'PY'
import sqlite3, sys, hashlib
db, students, handins = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
con = sqlite3.connect(db)
ids = [r[0] for r in con.execute("SELECT id FROM users WHERE role = 'student' ORDER BY id")]
with con:
    for n in range(handins):
        h = hashlib.sha256(str(n).encode()).hexdigest()
        verdict = '{"verdict":"accepted","reason":"./bot","stages":[]}'
        con.execute("INSERT INTO submissions (user_id, created, file_hash, file_name, size, state, "
                    "reason, verdict, build_log, checked) VALUES (?, '2026-11-01T10:00:00Z', ?, "
                    "'bot.zip', 3000, 'accepted', './bot', ?, 'make build', '2026-11-01T10:01:00Z')",
                    (ids[n % len(ids)], h, verdict))
PY
token="$("$arena" course token "$work/c" s1)"
"$arena" course serve "$work/c" --port 0 --local-games 0 >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q "http://" "$work/serve.log" && break; sleep 0.1; done
url="$(grep -o 'http://[0-9.:]*' "$work/serve.log")"
rss() { grep -E 'VmRSS|VmHWM' "/proc/$server/status" | tr -s ' \t' ' ' | paste -sd' '; }
echo "course: $students students, $handins hand-ins; server $url"
echo "memory after start: $(rss)"
curl -s -H "Authorization: Bearer $token" "$url/api/leaderboard" | python3 -c \
  'import json,sys; print("leaderboard rows:", len(json.load(sys.stdin)["rows"]))'
wrk -t2 -c"$clients" -d"${seconds}s" --latency -H "Authorization: Bearer $token" \
  "$url/api/leaderboard"
echo "memory after the load: $(rss)"
