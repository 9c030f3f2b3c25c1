#!/usr/bin/env bash
#
# A course's final tournament in shards on a real Slurm cluster: a course server with three
# students' Paper Soccer hand-ins starts the final with "shards": 2 (POST /api/final), which
# plans the event and writes its job array (`arena tournament slurm`); the test submits that
# script on a private single-node cluster (tests/slurm/cluster.sh), as staff would. The server
# must notice when every game is in the shards' journals, write the report and the tarball, and
# serve them; every game is in the journals exactly once.
#
# Usage: course_final_shards.sh ARENA_BINARY. Exit status: 0 success, 77 skipped (not root, or
# Slurm, munge, g++, make, curl, tar or python3 missing), anything else failure (with the logs).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=cluster.sh
source "$here/cluster.sh"
# shellcheck source-path=SCRIPTDIR source=course_server.sh
source "$here/course_server.sh"

arena=$(realpath "${1:?usage: course_final_shards.sh ARENA_BINARY}")
slurm_cluster_usable || exit 77
for cmd in g++ make curl tar python3; do
    command -v "$cmd" >/dev/null || { echo "skip: $cmd is missing" >&2; exit 77; }
done
# The interpreter itself: a version manager's python3 wrapper can take a second to start.
python=$(python3 -c 'import sys; print(sys.executable)')

# Short: slurmstepd makes Unix sockets under the cluster folder.
work=$(mktemp -d /tmp/arena-slurm.XXXXXX)
chmod 755 "$work"  # the agents run as nobody in the sandbox and must reach their files
course=$work/course
event=$course/final/event
logs=$event/cluster/logs

slurm_test_on_failure() {
    local f
    echo "== the server's output" >&2
    tail -n 30 "$work/server.log" >&2 || true
    for f in "$course"/final/*.log "$logs"/*.out; do
        [ -f "$f" ] && { echo "== $f" >&2; tail -n 30 "$f" >&2; }
    done
    [ ! -s "$work/final.json" ] || { echo "== the final" >&2; cat "$work/final.json" >&2; }
}
slurm_test_setup "$work"

course_test_save_state() { final | "$python" -m json.tool >"$work/final.json" 2>&1; }

# Every wait ends within the test's time: the test takes 4 minutes at most.
course_test_start 230

# GET /api/final as staff.
final() {
    curl -sf --max-time 5 -H "Authorization: Bearer $prof" "${url}api/final"
}
# Runs a Python expression on the final's JSON (`f`) and prints its value.
final_py() {
    final | "$python" -c "import json, sys; f = json.load(sys.stdin); print($1)"
}

step "a course with three students' Paper Soccer bots"
cd "$work"
printf '%s\n' login,name,role 'alice,Alice A,student' 'bob,Bob B,student' \
    'carol,Carol C,student' 'prof,Prof P,staff' >roster.csv
"$arena" course init "$course" --game soccer --roster roster.csv >/dev/null
students=(alice bob carol)
declare -A token
for s in "${students[@]}"; do token[$s]=$("$arena" course token "$course" "$s"); done
prof=$("$arena" course token "$course" prof)
course_test_bot_zip 0

# No ladder games on this machine and no workers: only the final plays.
"$arena" course serve "$course" --port 0 --no-grade --local-games 0 --move-time 200 \
    --check-options "--move-time 1000" >"$work/server.log" 2>&1 &
server_pid=$!
url_of_server() {
    url=$(grep -o -m1 'http://127\.0\.0\.1:[0-9]*/' "$work/server.log" || true)
    [ -n "$url" ]
}
wait_for 20 url_of_server || fail "the server did not start"
step "server on $url"
for s in "${students[@]}"; do
    "$arena" submit "$url" bot.zip --token "${token[$s]}" --timeout 150 >"$s.txt" 2>&1 &
    submit_pids+=($!)
done

slurm_cluster_start "$cluster"
started=1
step "cluster up"
for i in "${!students[@]}"; do
    wait "${submit_pids[$i]}" || {
        cat "${students[$i]}.txt"
        fail "${students[$i]}'s hand-in was not accepted"
    }
done
submit_pids=()
step "the three hand-ins accepted"

cutoff=$(date -u +%Y-%m-%dT%H:%M:%SZ)
status=$(curl -s --max-time 10 -o "$work/start.json" -w '%{http_code}' \
    -H "Authorization: Bearer $prof" -H 'Content-Type: application/json' \
    -d "{\"cutoff\": \"$cutoff\", \"ladder\": \"pause\", \"shards\": 2, \"move_time_ms\": 200}" \
    "${url}api/final")
[ "$status" = 202 ] || fail "POST /api/final answered $status: $(cat "$work/start.json")"
step "final started with a cut-off of $cutoff in 2 shards"

# The server plans the event and writes its cluster files (atomically), then waits for the games;
# it names the sbatch step once the script is there.
[ "$(final_py 'f["state"], f["shards"], f["total"], f["played"]')" = "running 2 6 0" ] ||
    fail "not running with 6 games to play in 2 shards: $(final)"
named() { [ "$(final_py 'f.get("next", "")')" = "sbatch $event/cluster/slurm.sbatch" ]; }
wait_for 60 named || fail "the final names no sbatch step: $(final)"
[ -f "$event/cluster/slurm.sbatch" ] || fail "the final names a script that is not there"
[ "$(final_py 'sorted(p["login"] for p in f["participants"])')" = "['alice', 'bob', 'carol']" ] ||
    fail "the entrants are not the three students: $(final)"
grep -q '^#SBATCH --array=1-2$' "$event/cluster/slurm.sbatch" || fail "not 2 array tasks"

# The test node has as many CPUs as the machine (2 here): with the script's cores and memory for
# a game's two agents, the tasks would run one after the other. TMPDIR: nothing outside $work.
mkdir "$work/tmp"
job=$(TMPDIR=$work/tmp sbatch --parsable --cpus-per-task=1 --mem=1000M \
    "$event/cluster/slurm.sbatch")
step "submitted the final's shards as job array $job"
slurm_wait_job "$job" "$(left 150)" || fail "the shards did not finish in time"
for k in 1 2; do
    [ -s "$logs/${job}_$k.out" ] || fail "no output file for task $k"
done
step "both shards ended: $(final_py 'f["played"]') game(s) in"

is_done() { [ "$(final_py 'f["state"]')" != running ]; }
wait_for 60 is_done || fail "the final still runs 60 s after the shards ended"
[ "$(final_py 'f["state"], f["played"], f["total"]')" = "done 6 6" ] ||
    fail "the final is not done with 6 of 6 games: $(final)"
[ "$(final_py 'f["report"], f["download"]')" = "/final/ /api/final/download" ] ||
    fail "the final names no report: $(final)"
step "the final is done"

# The report, to a student.
code=$(curl -s --max-time 10 -o "$work/index.html" -w '%{http_code}' \
    -H "Authorization: Bearer ${token[alice]}" "${url}final/")
[ "$code" = 200 ] || fail "GET /final/ answered $code"
grep -q '<html' "$work/index.html" || fail "/final/ is not a page"
# The page shows what its data.js holds (docs/viewer.md): the standings of the three.
curl -sf --max-time 10 -o "$work/data.js" -H "Authorization: Bearer ${token[alice]}" \
    "${url}final/data.js" || fail "GET /final/data.js failed"
for s in "${students[@]}"; do
    grep -q "\"$s\"" "$work/data.js" || fail "the report does not name $s"
done
curl -sf --max-time 10 -o "$work/results.json" -H "Authorization: Bearer ${token[carol]}" \
    "${url}final/files/results.json" || fail "GET /final/files/results.json failed"
grep -q '"games_played": 6' "$work/results.json" ||
    fail "the report's results.json does not hold the 6 games"
curl -sf --max-time 10 -o "$work/final.tar.gz" -H "Authorization: Bearer ${token[bob]}" \
    "${url}api/final/download" || fail "GET /api/final/download failed"
[ "$(head -c 2 "$work/final.tar.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] ||
    fail "the download is not gzip"
tar tzf "$work/final.tar.gz" >"$work/tar.txt" || fail "the download is not a tarball"
for f in index.html data.js; do
    grep -qx "final-report/$f" "$work/tar.txt" || fail "the tarball has no final-report/$f"
done
if grep -qv '^final-report/' "$work/tar.txt"; then
    fail "the tarball holds more than final-report/: $(grep -v '^final-report/' "$work/tar.txt")"
fi

# Every game once: in the shards' journals (nothing in the main one), each number once.
cat "$event"/journal.jsonl "$event"/shards/*.jsonl | "$python" -c '
import collections, json, sys
games = [j["game"] for j in map(json.loads, sys.stdin) if j.get("type") == "game"]
twice = [g for g, n in collections.Counter(games).items() if n > 1]
assert sorted(games) == [1, 2, 3, 4, 5, 6], f"games {sorted(games)}, twice {twice}"' ||
    fail "the journals do not hold each of the 6 games once"
[ "$(grep -c '"type":"game"' "$event/journal.jsonl" || true)" = 0 ] ||
    fail "the server played games itself"
stop_server
step "ok: 6 games in 2 shards on Slurm, the report served and downloadable"
