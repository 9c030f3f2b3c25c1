#!/usr/bin/env bash
#
# A course's workers on a real Slurm cluster: a course server with two students' Paper Soccer
# hand-ins, and the job array of two workers that `arena course slurm` writes, on a private
# single-node cluster (tests/slurm/cluster.sh). Once both workers play, one array task is
# cancelled in the middle of a game: that game must go back to the queue when its lease runs
# out, be played by the other worker and count once; the other worker keeps playing.
#
# Usage: course_workers.sh ARENA_BINARY. Exit status: 0 success, 77 skipped (not root, or Slurm,
# munge, g++, make, curl or python3 missing), anything else failure (with the logs).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=cluster.sh
source "$here/cluster.sh"
# shellcheck source-path=SCRIPTDIR source=course_server.sh
source "$here/course_server.sh"

arena=$(realpath "${1:?usage: course_workers.sh ARENA_BINARY}")
slurm_cluster_usable || exit 77
for cmd in g++ make curl python3; do
    command -v "$cmd" >/dev/null || { echo "skip: $cmd is missing" >&2; exit 77; }
done
# The interpreter itself: a version manager's python3 wrapper can take a second to start.
python=$(python3 -c 'import sys; print(sys.executable)')

# Short: slurmstepd makes Unix sockets under the cluster folder.
work=$(mktemp -d /tmp/arena-slurm.XXXXXX)
chmod 755 "$work"  # the agents run as nobody in the sandbox and must reach their files
course=$work/course
logs=$course/cluster/logs

slurm_test_on_failure() {
    local f
    echo "== the server's output" >&2
    tail -n 30 "$work/server.log" >&2 || true
    for f in "$logs"/*.out; do
        [ -f "$f" ] && { echo "== $f" >&2; tail -n 30 "$f" >&2; }
    done
    [ ! -s "$work/ladder.json" ] || { echo "== the ladder" >&2; cat "$work/ladder.json" >&2; }
}
slurm_test_setup "$work"

course_test_save_state() { ladder | "$python" -m json.tool >"$work/ladder.json" 2>&1; }

# Every wait ends within the test's time: the test takes 5 minutes at most.
course_test_start 270

# GET /api/ladder as staff.
ladder() {
    curl -sf --max-time 5 -H "Authorization: Bearer $prof" "${url}api/ladder"
}
# Runs a Python expression on the ladder's JSON (`l`) and prints its value.
ladder_py() {
    ladder | "$python" -c "import json, sys; l = json.load(sys.stdin); print($1)"
}
# The job a worker's log shows it playing (leased and not ended), if any.
open_job() {
    awk 'match($0, /: job [0-9]+ /) {
             id = substr($0, RSTART + 6, RLENGTH - 7)
             if ($0 ~ / \((ladder|challenge)\): /) open[id] = 1; else delete open[id]
         }
         END { for (id in open) print id }' "$1"
}
games_done() {
    if [ -f "$1" ]; then grep -c ': job [0-9]* done: ' "$1" || true; else echo 0; fi
}

step "a course with two students' Paper Soccer bots"
cd "$work"
printf 'login,name,role\nalice,Alice A,student\nbob,Bob B,student\nprof,Prof P,staff\n' >roster.csv
"$arena" course init "$course" --game soccer --roster roster.csv >/dev/null
alice=$("$arena" course token "$course" alice)
bob=$("$arena" course token "$course" bob)
prof=$("$arena" course token "$course" prof)
# The test bot slowed down to 50 ms a turn: a game then lasts a few seconds, and a worker can be
# cancelled in the middle of one.
course_test_bot_zip 50000

"$arena" course serve "$course" --port 0 --no-grade --local-games 0 --move-time 200 --lease 8 \
    --ladder-queue 4 --check-options "--move-time 1000" >"$work/server.log" 2>&1 &
server_pid=$!
url_of_server() {
    url=$(grep -o -m1 'http://127\.0\.0\.1:[0-9]*/' "$work/server.log" || true)
    [ -n "$url" ]
}
wait_for 20 url_of_server || fail "the server did not start"
step "server on $url"
"$arena" submit "$url" bot.zip --token "$alice" --timeout 120 >alice.txt 2>&1 &
submit_pids+=($!)
"$arena" submit "$url" bot.zip --token "$bob" --timeout 120 >bob.txt 2>&1 &
submit_pids+=($!)

slurm_cluster_start "$cluster"
started=1
step "cluster up"
wait "${submit_pids[0]}" || { cat alice.txt; fail "alice's hand-in was not accepted"; }
wait "${submit_pids[1]}" || { cat bob.txt; fail "bob's hand-in was not accepted"; }
submit_pids=()
step "both hand-ins accepted"

"$arena" course slurm "$course" --workers 2 --url "$url"
token=$(cat "$course/cluster/worker-token")
[ "$(stat -c %a "$course/cluster/worker-token")" = 600 ] || fail "the token file is not private"
[ "$(stat -c %a "$course/cluster/kubernetes-workers.yaml")" = 600 ] ||
    fail "the Kubernetes file is not private"
if grep -qF "$token" "$course/cluster/workers.sbatch"; then fail "the script holds the token"; fi
grep -qF "token: $(printf %s "$token" | base64 -w0)" "$course/cluster/kubernetes-workers.yaml" ||
    fail "the Kubernetes Secret lacks the token"
grep -q '^#SBATCH --array=1-2$' "$course/cluster/workers.sbatch" || fail "not 2 array tasks"

# The test node has as many CPUs as the machine (2 here): with the script's 2 CPUs a worker,
# the tasks would run one after the other. The built hand-ins go into $work/tmp, removed with it.
mkdir "$work/tmp"
job=$(TMPDIR=$work/tmp sbatch --parsable --cpus-per-task=1 --mem=1000M \
    "$course/cluster/workers.sbatch")
step "submitted the workers as job array $job"
both_played() {
    [ "$(games_done "$logs/${job}_1.out")" -ge 1 ] && [ "$(games_done "$logs/${job}_2.out")" -ge 1 ]
}
wait_for 120 both_played || fail "the two workers did not each play a game in 120 s"
step "both workers play: $(ladder_py 'len(l["finished"])') game(s) so far"
# The workers read their token from its file: no command line shows it.
if pgrep -f -- "$token" >/dev/null; then
    fail "a command line holds the worker token"
fi

# Cancels array task $1 (a job id and _index) in the middle of a game; sets `killed` to that
# game's job, or leaves it empty when the task was between games after all.
killed=
kill_mid_game() {
    local task=$1 log=$logs/$1.out playing game
    killed=
    # Playing a game, by its log, and that game is among those the server shows as played.
    playing_a_game() {
        game=$(open_job "$log")
        [ -n "$game" ] || return 1
        playing=$(ladder_py '" ".join(str(j["id"]) for j in l["playing"])')
        [ "$(open_job "$log")" = "$game" ] && [[ " $playing " == *" $game "* ]]
    }
    wait_for 60 playing_a_game || fail "task $task is not playing"
    scancel "$task"
    slurm_wait_job "$task" "$(left 40)" || fail "task $task still runs 40 s after scancel"
    step "cancelled task $task while the server showed games [$playing] being played"
    # It was cut off if the task's log shows it still open after the task ended, and the server
    # has no result of it (the lease has not run out yet: nobody else can have played it).
    if [ "$(open_job "$log")" != "$game" ]; then
        step "task $task had ended job $game before the cancel: $(tail -n 2 "$log" | tr '\n' ' ')"
    elif [ "$(ladder_py "[j['id'] for j in l['finished'] if j['id'] == $game]")" != "[]" ]; then
        step "task $task had posted job $game's result before the cancel"
    else
        killed=$game
    fi
}
kill_mid_game "${job}_1"
other=$logs/${job}_2.out
if [ -z "$killed" ]; then
    # It was between games: start it again and cancel it once more.
    job1=$(TMPDIR=$work/tmp sbatch --parsable --array=1 --cpus-per-task=1 --mem=1000M \
        "$course/cluster/workers.sbatch")
    played() { [ "$(games_done "$logs/${job1}_1.out")" -ge 1 ]; }
    wait_for 60 played || fail "the resubmitted worker did not play"
    kill_mid_game "${job1}_1"
fi
[ -n "$killed" ] || fail "twice, the cancelled worker was between games"
step "job $killed was cut off in the middle"

done_at_kill=$(games_done "$other")
killed_is_done() {
    [ "$(ladder_py "[j['state'] for j in l['finished'] if j['id'] == $killed]")" = "['done']" ]
}
wait_for 90 killed_is_done || fail "job $killed was not played again in 90 s"
attempts=$(ladder_py "[j['attempts'] for j in l['finished'] if j['id'] == $killed][0]")
[ "$attempts" -ge 2 ] || fail "job $killed ended after $attempts attempt(s)"
grep -q ": job $killed done: " "$other" || fail "the other worker did not play job $killed"
step "job $killed was played again by the other worker (attempt $attempts)"

keeps_playing() { [ "$(games_done "$other")" -gt "$done_at_kill" ]; }
wait_for 60 keeps_playing || fail "the remaining worker stopped playing"
state=$(squeue --noheader --jobs="${job}_2" --format=%T)
[ "$state" = RUNNING ] || fail "the remaining worker is '$state'"

# Nothing counts twice: one game per finished job, one result per job in all the workers' logs.
ladder_py '[j["game"] for j in l["finished"] if j["state"] == "done"]' >"$work/games.txt"
"$python" -c '
import ast, sys
games = ast.literal_eval(open(sys.argv[1]).read())
assert games and None not in games and len(set(games)) == len(games), games' "$work/games.txt" ||
    fail "a game counted twice: $(cat "$work/games.txt")"
twice=$(cat "$logs"/*.out | grep -o ': job [0-9]* done: ' | sort | uniq -d)
[ -z "$twice" ] || fail "played to the end twice: $twice"
finished=$(ladder_py 'sum(j["state"] == "done" for j in l["finished"])')

step "stopping the workers"
scancel "$job"
slurm_wait_job "$job" "$(left 40)" || fail "the workers did not stop in 40 s"
# Each task removes its cache of built hand-ins, also when cancelled.
caches=$(find "$work/tmp" -mindepth 1 -maxdepth 1)
[ -z "$caches" ] || fail "the workers left their caches: $caches"
stop_server
step "ok: $finished game(s) played, job $killed cut off and played again by the other worker"
