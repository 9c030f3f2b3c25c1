#!/usr/bin/env bash
#
# `arena tournament` on a real Slurm cluster: a private single-node cluster of Debian's
# slurm-wlm and munge (tests/slurm/cluster.sh) runs the job array that `arena tournament slurm`
# writes, and the results must be those of the same event played on one machine. Then one array
# task is cancelled in mid-game with scancel and resubmitted: every game must be in the results
# exactly once.
#
# Usage: run.sh ARENA_BINARY. Exit status: 0 success, 77 skipped (not root, or Slurm or munge
# missing: scripts/setup.sh installs them), anything else failure (with the daemons' logs).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=cluster.sh
source "$here/cluster.sh"

arena=$(realpath "${1:?usage: run.sh ARENA_BINARY}")
slurm_cluster_usable || exit 77

# Short: slurmstepd makes Unix sockets under the cluster folder.
work=$(mktemp -d /tmp/arena-slurm.XXXXXX)
chmod 755 "$work"  # the agents run as nobody in the sandbox and must reach their files
# The tasks' output, when the test fails.
slurm_test_on_failure() {
    local f
    for f in "$work"/*/cluster/logs/*.out; do
        [ -f "$f" ] && { echo "== $f" >&2; tail -n 20 "$f" >&2; }
    done
}
slurm_test_setup "$work"

# A deterministic field: seeded random and greedy players and fixed-depth engines.
event_options=(fission -a "r1: random" -a greedy -a "deep: engine depth=2" -a "d1: engine depth=1"
    --seed 77 --warmup 0 --moves-per-player 12)

# Every game's moves, record by record: the records are indented JSON, one move a line.
moves_of() {
    local dir=$1 f
    for f in "$dir"/games/*.json; do
        echo "== $(basename "$f")"
        grep '"move":' "$f"
    done
}

# The number of game lines in all of an event's journals.
journal_games() {
    cat "$1"/journal.jsonl "$1"/shards/*.jsonl 2>/dev/null | grep -c '"type":"game"' || true
}

echo "== the event on one machine"
cd "$work"
"$arena" tournament "${event_options[@]}" -o local -q >/dev/null

echo "== the same event as a 4-task Slurm job array"
slurm_cluster_start "$cluster"
started=1
"$arena" tournament plan "${event_options[@]}" -o sharded >/dev/null
"$arena" tournament slurm sharded --shards 4
job=$(sbatch --parsable sharded/cluster/slurm.sbatch)
echo "submitted job array $job"
slurm_wait_job "$job" 300 || fail "the job array did not finish in 300 s"
"$arena" tournament status sharded | tee "$work/status.txt"
grep -q "12/12 games played" "$work/status.txt" || fail "not every game was played"
"$arena" tournament report sharded >/dev/null
for f in results.json standings.csv crosstable.csv games.csv standings.md; do
    cmp local/$f sharded/$f || fail "$f differs from the one-machine event"
done
diff <(moves_of local) <(moves_of sharded) || fail "the games' moves differ"
for k in 1 2 3 4; do
    [ -s sharded/cluster/logs/"${job}_$k".out ] || fail "no output file for task $k"
done
[ "$(journal_games sharded)" -eq 12 ] || fail "the journals do not hold 12 games"
echo "ok: standings, crosstable, ratings and every game's moves equal the one-machine event"

echo "== cancel an array task in mid-game, resubmit it"
"$arena" tournament plan fission -a "a: engine time=120" -a "b: engine time=120" -a greedy \
    -a "r: random" --seed 5 --warmup 0 --moves-per-player 10 -o cancelled >/dev/null
"$arena" tournament slurm cancelled --shards 2 >/dev/null
job=$(sbatch --parsable cancelled/cluster/slurm.sbatch)
journal=cancelled/shards/0002-of-0002.jsonl
# Shard 2 has finished a game and is in the middle of its next one.
for _ in $(seq 600); do
    [ -f "$journal" ] && [ "$(grep -c '"type":"game"' "$journal")" -ge 1 ] && break
    sleep 0.2
done
[ "$(grep -c '"type":"game"' "$journal")" -ge 1 ] || fail "shard 2 played no game in 120 s"
sleep 1
scancel "${job}_2"
slurm_wait_job "$job" 300 || fail "the job array did not end in 300 s"
"$arena" tournament status cancelled | tee "$work/status.txt"
grep -q "2/2 .*stopped.*signal 15" "$work/status.txt" || fail "shard 2 is not shown as stopped"
played=$(grep -c '"type":"game"' "$journal")
[ "$played" -lt 6 ] || fail "shard 2 had finished all its games before the cancel"
job=$(sbatch --parsable --array=2 cancelled/cluster/slurm.sbatch)
echo "resubmitted shard 2 as job $job"
slurm_wait_job "$job" 300 || fail "the resubmitted task did not finish in 300 s"
"$arena" tournament status cancelled | tee "$work/status.txt"
grep -q "12/12 games played" "$work/status.txt" || fail "not every game was played"
if grep -q "more than one journal" "$work/status.txt"; then fail "a game was played twice"; fi
[ "$(journal_games cancelled)" -eq 12 ] || fail "the journals do not hold each game once"
"$arena" tournament report cancelled >/dev/null
grep -q '"games_played": 12' cancelled/results.json || fail "results.json lacks games"
for n in $(seq -w 1 12); do
    ls cancelled/games/0"$n"-*.json >/dev/null 2>&1 || fail "game $n has no record"
done
echo "ok: shard 2 was cancelled after $played games, resubmitted, and every game is in once"
