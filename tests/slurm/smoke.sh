#!/usr/bin/env bash
#
# Smoke test of tests/slurm/cluster.sh: starts a private single-node Slurm
# cluster and checks the features the arena Slurm integration relies on: job
# arrays, cancelling one array task, resubmitting one index.
#
# Exit status: 0 success, 77 skipped (not root, Slurm or munge missing),
# anything else failure (daemon logs are printed).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=cluster.sh
source "$here/cluster.sh"

slurm_cluster_usable || exit 77

work=$(mktemp -d "${TMPDIR:-/tmp}/arena-slurm-smoke.XXXXXX")
# slurm_cluster_start prints the logs itself when it fails.
slurm_test_setup "$work"

# Seconds since the start of the test, with millisecond precision.
t0=${EPOCHREALTIME/[.,]/}
elapsed() {
    local us=$((${EPOCHREALTIME/[.,]/} - t0))
    printf '%d.%03d' $((us / 1000000)) $((us / 1000 % 1000))
}
step() {
    echo "[$(elapsed)s] $*"
}

step "starting cluster in $cluster"
slurm_cluster_start "$cluster"
started=1
step "cluster up (SLURM_CONF=$SLURM_CONF)"

# One array task: records that it started, sleeps ($3 s if its index is $2,
# 1 s otherwise), then writes its index.  Only that last step proves that the
# task ran to completion.
cat >"$work/task.sh" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
out=$1 slow_index=$2 slow_seconds=$3
id=$SLURM_ARRAY_TASK_ID
touch "$out/started.$id"
if [[ $id == "$slow_index" ]]; then
    sleep "$slow_seconds"
else
    sleep 1
fi
echo "$id" >"$out/task.$id"
EOF
chmod +x "$work/task.sh"

# Expects $1/task.N to contain N for each following N.
check_outputs() {
    local dir=$1 id
    shift
    for id in "$@"; do
        [[ -f $dir/task.$id ]] || fail "$dir/task.$id missing"
        [[ $(<"$dir/task.$id") == "$id" ]] || fail "$dir/task.$id holds '$(<"$dir/task.$id")', not $id"
    done
}

# --- 1. a 4-task array runs to completion ----------------------------------
mkdir "$work/run1"
jobid=$(sbatch --parsable --array=1-4 --output="$work/run1/slurm-%A_%a.out" \
    "$work/task.sh" "$work/run1" 0 0)
step "submitted array job $jobid"
slurm_wait_job "$jobid" 60 || fail "array job $jobid did not finish"
check_outputs "$work/run1" 1 2 3 4
step "array job $jobid: all 4 tasks wrote their index"

# --- 2. cancelling one array task while it runs ----------------------------
mkdir "$work/run2"
jobid=$(sbatch --parsable --array=1-4 --output="$work/run2/slurm-%A_%a.out" \
    "$work/task.sh" "$work/run2" 2 60)
step "submitted array job $jobid (task 2 sleeps 60 s)"
deadline=$((SECONDS + 30))
until [[ -e $work/run2/started.2 ]]; do
    ((SECONDS < deadline)) || fail "task ${jobid}_2 did not start"
    sleep 0.2
done
step "task ${jobid}_2 started, cancelling it"
scancel "${jobid}_2"
slurm_wait_job "${jobid}_2" 15 || fail "task ${jobid}_2 still alive 15 s after scancel"
step "task ${jobid}_2 ended"
slurm_wait_job "$jobid" 60 || fail "array job $jobid did not finish"
[[ ! -e $work/run2/task.2 ]] || fail "cancelled task ${jobid}_2 ran to completion"
check_outputs "$work/run2" 1 3 4
# The record stays visible for MinJobAge seconds after the job ends.
state=$(squeue --noheader --states=all --jobs="${jobid}_2" --format=%T)
[[ $state == CANCELLED ]] || fail "task ${jobid}_2 is '$state', not CANCELLED"
step "array job $jobid: tasks 1 3 4 completed, task 2 CANCELLED"

# --- 3. resubmitting the cancelled index ------------------------------------
jobid2=$(sbatch --parsable --array=2 --output="$work/run2/slurm-%A_%a.out" \
    "$work/task.sh" "$work/run2" 2 0)
step "resubmitted index 2 as job $jobid2"
slurm_wait_job "$jobid2" 60 || fail "resubmitted job $jobid2 did not finish"
check_outputs "$work/run2" 1 2 3 4
step "resubmitted task ${jobid2}_2 completed"

step "stopping cluster"
slurm_cluster_stop "$cluster"
step "cluster stopped"
echo "PASS"
