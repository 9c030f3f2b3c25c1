# shellcheck shell=bash
#
# Throw-away single-node Slurm cluster for tests.
#
# Source this file, then:
#
#   slurm_cluster_usable || exit 77       # prints why when it cannot work
#   dir=$(mktemp -d)
#   trap 'slurm_cluster_stop "$dir"; rm -rf "$dir"' EXIT
#   slurm_cluster_start "$dir"            # exports SLURM_CONF
#   jobid=$(sbatch --parsable --array=1-4 job.sh)
#   slurm_wait_job "$jobid" 60
#
# Everything (munge key and socket, slurm.conf, state, spool, pid and log
# files) lives under the given folder: /etc/slurm, /etc/munge, /run/munge and
# systemd are never used, and the daemons listen on free non-default ports so
# that a real cluster on the same host is not disturbed.  Needs root because
# slurmd must be able to run jobs as the submitting user and the daemons are
# configured with SlurmUser=root.
#
# Every daemon is started with SLURM_TEST_CLUSTER=<folder> in its environment,
# and slurm_cluster_stop uses that marker (plus the files slurmstepd keeps open
# and the SLURM_CONF of job tasks) to find leftover processes of *this* cluster
# without touching anything else on the machine, e.g. another test cluster.
#
# The functions never call `exit`, only `return`, so they can be used from
# scripts with or without `set -e`.

# The daemons and munge tools live in sbin, which is not always on PATH.
_slurm_cluster_path="${PATH:-/usr/bin:/bin}:/usr/sbin:/sbin"

_slurm_cluster_log() {
    printf 'slurm-cluster: %s\n' "$*" >&2
}

# Canonical absolute form of a cluster folder, also when it no longer exists,
# so that the marker matches whatever spelling the caller used.
_slurm_cluster_dir() {
    realpath -m -- "$1"
}

# True when TCP port $1 has no listener (IPv4 or IPv6).
_slurm_cluster_port_free() {
    local port=$1 hex line
    if command -v ss >/dev/null 2>&1; then
        [[ -z "$(ss -Hltn "sport = :$port" 2>/dev/null)" ]]
        return
    fi
    # No ss: listening sockets have state 0A in /proc/net/tcp{,6}.
    printf -v hex ':%04X' "$port"
    for line in /proc/net/tcp /proc/net/tcp6; do
        [[ -r $line ]] || continue
        if awk -v p="$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' "$line"; then
            return 1
        fi
    done
    return 0
}

# Prints a free port below the Linux ephemeral range (32768+), so outgoing
# connections cannot grab it between this check and the daemon's bind().
# Ports already printed by earlier calls are passed as arguments and skipped.
_slurm_cluster_free_port() {
    local port try taken
    for ((try = 0; try < 200; try++)); do
        port=$((20000 + RANDOM % 12000))
        for taken in "$@"; do
            [[ $port == "$taken" ]] && continue 2
        done
        if _slurm_cluster_port_free "$port"; then
            echo "$port"
            return 0
        fi
    done
    _slurm_cluster_log "no free TCP port found"
    return 1
}

# Pids of processes whose environment holds exactly the line $1 (NUL
# separated), excluding this shell and its ancestors so that a stop called
# from inside a job (or from a process that inherited the marker) cannot kill
# its own caller.
_slurm_cluster_pids_with_env() {
    local line=$1 pid file stat
    local -A keep=()
    pid=$BASHPID
    while [[ $pid =~ ^[0-9]+$ && $pid -gt 1 ]]; do
        keep[$pid]=1
        stat=$(<"/proc/$pid/stat") 2>/dev/null || break
        # The parent pid follows the state, after the (comm) which may
        # itself contain spaces and parentheses.
        read -r _ pid _ <<<"${stat##*) }"
    done
    # grep -z treats each NUL-terminated environment entry as a line; files of
    # processes that vanish meanwhile or are unreadable are silently skipped.
    while IFS= read -r file; do
        pid=${file#/proc/}
        pid=${pid%/environ}
        [[ -n ${keep[$pid]:-} ]] || echo "$pid"
    done < <(grep -lzxF -- "$line" /proc/[0-9]*/environ 2>/dev/null || true)
}

# Processes belonging to the cluster in folder $1:
#  - the daemons (munged, slurmctld, slurmd), which carry the marker, and
#    their direct children (slurmscriptd);
#  - slurmstepd, which slurmd starts with a fresh environment and which then
#    overwrites the start of it with its process title, so the marker is not
#    reliable there: recognised by its open SlurmdLogFile (or SLURM_CONF);
#  - job tasks, including ones that daemonized out of the step's process tree
#    (proctrack/linuxproc loses those): slurmstepd always sets SLURM_CONF,
#    which points into the folder, and SLURM_JOB_ID.
_slurm_cluster_pids() {
    local dir=$1 pid file fd
    local -a daemons=()
    mapfile -t daemons < <(_slurm_cluster_pids_with_env "SLURM_TEST_CLUSTER=$dir")
    if ((${#daemons[@]})); then
        printf '%s\n' "${daemons[@]}"
        # Their helpers (slurmctld's slurmscriptd) retitle themselves too.
        ps -e -o pid=,ppid= | awk -v list=" ${daemons[*]} " 'index(list, " " $2 " ") { print $1 }'
    fi
    while IFS= read -r file; do
        pid=${file#/proc/}
        pid=${pid%/comm}
        for fd in "/proc/$pid/fd/"*; do
            if [[ $(readlink "$fd" 2>/dev/null) == "$dir"/* ]]; then
                echo "$pid"
                break
            fi
        done
    done < <(grep -lx slurmstepd /proc/[0-9]*/comm 2>/dev/null || true)
    while IFS= read -r pid; do
        if grep -qz '^SLURM_JOB_ID=' "/proc/$pid/environ" 2>/dev/null ||
            grep -qx slurmstepd "/proc/$pid/comm" 2>/dev/null; then
            echo "$pid"
        fi
    done < <(_slurm_cluster_pids_with_env "SLURM_CONF=$dir/etc/slurm.conf")
}

# Pid from pid file $2 if that process is still alive and carries the marker
# of cluster $1 (guards against a recycled pid).
_slurm_cluster_pidfile_pid() {
    local dir=$1 file=$2 pid
    [[ -r $file ]] || return 1
    read -r pid <"$file" || return 1
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    grep -qzxF -- "SLURM_TEST_CLUSTER=$dir" "/proc/$pid/environ" 2>/dev/null || return 1
    echo "$pid"
}

# Waits up to $1 seconds for all given pids to exit; false if some remain.
_slurm_cluster_wait_gone() {
    local timeout=$1 deadline pid alive
    shift
    deadline=$((SECONDS + timeout))
    while :; do
        alive=0
        for pid in "$@"; do
            # Zombies have exited; their parent (init) just has not reaped them.
            if [[ -e /proc/$pid ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null; then
                alive=1
                break
            fi
        done
        ((alive)) || return 0
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

# SIGTERM, bounded wait, then SIGKILL.
_slurm_cluster_terminate() {
    local grace=$1
    shift
    (($#)) || return 0
    kill -TERM "$@" 2>/dev/null || true
    if ! _slurm_cluster_wait_gone "$grace" "$@"; then
        kill -KILL "$@" 2>/dev/null || true
        _slurm_cluster_wait_gone 5 "$@" || true
    fi
}

# Prints the end of each daemon log (and of the daemons' stderr, which holds
# the errors from before their log file was opened), for post-mortems in CI
# output.
slurm_cluster_logs() {
    local dir file
    dir=$(_slurm_cluster_dir "$1")
    for file in "$dir"/log/*.log "$dir"/log/*.out; do
        [[ -s $file ]] || continue
        printf '===== %s (last 60 lines) =====\n' "$file" >&2
        tail -n 60 "$file" >&2
    done
}

# Returns 0 if this machine can run slurm_cluster_start; otherwise prints why
# and returns 1 (callers typically turn that into exit code 77, "skipped").
slurm_cluster_usable() {
    local cmd missing=()
    if [[ $OSTYPE != linux* ]]; then
        _slurm_cluster_log "skip: needs Linux"
        return 1
    fi
    if [[ $(id -u) != 0 ]]; then
        _slurm_cluster_log "skip: needs root (slurmd must run jobs as the submitting user)"
        return 1
    fi
    for cmd in munged munge unmunge slurmctld slurmd sbatch squeue scancel scontrol sinfo \
        realpath awk grep hostname nproc ps pgrep timeout; do
        PATH=$_slurm_cluster_path command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
    done
    if ((${#missing[@]})); then
        _slurm_cluster_log "skip: missing commands: ${missing[*]} (Debian: apt-get install slurm-wlm munge)"
        return 1
    fi
    if [[ -z "$(hostname -s 2>/dev/null)" ]]; then
        _slurm_cluster_log "skip: hostname -s is empty"
        return 1
    fi
    return 0
}

# Creates the key and starts munged on a private socket.
_slurm_cluster_start_munge() {
    local dir=$1 key=$1/munge/munge.key sock=$1/munge/munge.socket i
    mkdir -p "$dir/munge"
    chmod 0700 "$dir/munge"
    if command -v mungekey >/dev/null 2>&1; then
        mungekey --create --keyfile="$key" || return 1
    else
        (umask 077 && dd if=/dev/urandom of="$key" bs=1 count=1024 status=none) || return 1
    fi
    chmod 0400 "$key"
    # --force: munged insists that every directory above its socket be
    # searchable by all users, which a mktemp -d folder (0700) is not; as root
    # that only matters for other users, who never talk to this cluster.
    SLURM_TEST_CLUSTER=$dir munged --force \
        --key-file="$key" --socket="$sock" \
        --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$dir/munge/munged.seed" \
        >>"$dir/log/munged.log" 2>&1 || return 1
    for ((i = 0; i < 100; i++)); do
        if munge --socket="$sock" --no-input 2>/dev/null |
            unmunge --socket="$sock" >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.1
    done
    _slurm_cluster_log "munged did not answer on $sock"
    return 1
}

# Writes $dir/etc/slurm.conf and an empty plugstack.conf next to it.
_slurm_cluster_write_conf() {
    local dir=$1 host=$2 ctld_port=$3 slurmd_port=$4 cpus mem_kb mem_mb
    cpus=$(nproc)
    # Slurm drains a node whose RealMemory exceeds what slurmd measures, so
    # stay well below the free memory (MemAvailable, in kB).
    mem_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
    mem_mb=$((mem_kb * 8 / 10 / 1024))
    ((mem_mb >= 256)) || mem_mb=256

    # Spank plugins configured for the real cluster must not be loaded.
    : >"$dir/etc/plugstack.conf"
    cat >"$dir/etc/slurm.conf" <<EOF
# Generated by tests/slurm/cluster.sh for a throw-away test cluster.
ClusterName=testcluster
# The explicit address avoids depending on how the host name resolves.
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# Used by the daemons and by every client command reading this file.
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/etc/plugstack.conf
MailProg=/bin/true
MpiDefault=none
# No cgroups: works on cgroup v1/v2 hosts and in containers alike.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
SchedulerType=sched/backfill
# Start jobs (and the next array tasks) within about a second instead of the
# 3 s batch delay / 30 s backfill period meant for busy production clusters.
SchedulerParameters=batch_sched_delay=0,sched_interval=1,sched_min_interval=0,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# Without a default, a job without --mem would allocate the whole node and
# array tasks would run one at a time.  Not enforced (no cgroups).
DefMemPerCPU=100
# A cancelled job gets SIGTERM, then SIGKILL after KillWait seconds: long enough
# for a shard to end its game's agents and note that it stopped, also in the
# sanitizer build, whose processes end slower (5 s was not always enough there).
KillWait=30
# Finished jobs stay visible (squeue --states=all) this long; there is no
# accounting database, so sacct cannot tell their final state.
MinJobAge=30
# Let the node become idle as soon as slurmd registers, whatever its history.
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

# Starts munged, slurmctld and slurmd with all their files under DIR (which
# must exist and should be empty), waits until the node is idle, and exports
# SLURM_CONF so that sbatch, squeue, scancel, scontrol and sinfo use this
# cluster (other SLURM_*/SBATCH_*/... variables are unset).  Waits at most
# SLURM_CLUSTER_START_TIMEOUT seconds (default 60).  On failure prints the
# daemon logs, stops whatever was started and returns non-zero.
slurm_cluster_start() {
    local dir host ctld_port slurmd_port state deadline pid
    local timeout=${SLURM_CLUSTER_START_TIMEOUT:-60}
    if (($# != 1)) || [[ ! -d $1 ]]; then
        _slurm_cluster_log "usage: slurm_cluster_start EXISTING_DIR"
        return 2
    fi
    slurm_cluster_usable || return 1
    dir=$(_slurm_cluster_dir "$1")
    host=$(hostname -s)
    local PATH=$_slurm_cluster_path
    # slurm.conf has no quoting for paths.
    if [[ $dir =~ [[:space:]#=,] ]]; then
        _slurm_cluster_log "cluster folder must not contain spaces or any of #=,: '$dir'"
        return 1
    fi
    # slurmstepd listens on a Unix socket in SlurmdSpoolDir named after the
    # node and step; such paths are limited to 107 bytes.
    if ((${#dir} + ${#host} + 40 > 107)); then
        _slurm_cluster_log "cluster folder path too long for Unix sockets: '$dir'"
        return 1
    fi

    # Settings inherited from an enclosing Slurm job or the user's shell
    # (SLURM_JOB_ID, SBATCH_PARTITION, SQUEUE_FORMAT, ...) would leak into
    # the commands aimed at this cluster.
    local var
    for var in $(compgen -e); do
        case $var in
        SLURM_* | SBATCH_* | SQUEUE_* | SINFO_* | SCANCEL_* | SCONTROL_* | SRUN_* | SALLOC_*)
            unset "$var" ;;
        esac
    done

    mkdir -p "$dir"/{etc,state,spool/slurmd,run,log} || return 1
    ctld_port=$(_slurm_cluster_free_port) || return 1
    slurmd_port=$(_slurm_cluster_free_port "$ctld_port") || return 1
    _slurm_cluster_write_conf "$dir" "$host" "$ctld_port" "$slurmd_port" || return 1
    export SLURM_CONF=$dir/etc/slurm.conf

    if ! _slurm_cluster_start_munge "$dir"; then
        slurm_cluster_logs "$dir"
        slurm_cluster_stop "$dir"
        return 1
    fi
    # Both daemonize once their configuration is read; the marker lets
    # slurm_cluster_stop recognise them and their slurmstepd children.
    if ! SLURM_TEST_CLUSTER=$dir slurmctld -c -f "$SLURM_CONF" >>"$dir/log/slurmctld.out" 2>&1 ||
        ! SLURM_TEST_CLUSTER=$dir slurmd -c -f "$SLURM_CONF" -N "$host" >>"$dir/log/slurmd.out" 2>&1; then
        _slurm_cluster_log "a Slurm daemon failed to start"
        slurm_cluster_logs "$dir"
        slurm_cluster_stop "$dir"
        return 1
    fi

    # slurmd registers with slurmctld; with ReturnToService=2 the node then
    # goes from "unknown" to "idle" on its own.
    deadline=$((SECONDS + timeout))
    while :; do
        state=$(sinfo --noheader --nodes="$host" --format=%T 2>/dev/null || true)
        [[ $state == idle ]] && return 0
        for pid in slurmctld slurmd munged; do
            # Pid files appear only once a daemon has forked; do not treat
            # their absence in the first instants as a crash.
            if [[ -e $dir/run/$pid.pid ]] && ! _slurm_cluster_pidfile_pid "$dir" "$dir/run/$pid.pid" >/dev/null; then
                _slurm_cluster_log "$pid died during start-up"
                deadline=0
            fi
        done
        if ((SECONDS >= deadline)); then
            _slurm_cluster_log "node $host not idle (state: '${state:-none}')"
            scontrol show node "$host" >&2 2>/dev/null || true
            slurm_cluster_logs "$dir"
            slurm_cluster_stop "$dir"
            return 1
        fi
        sleep 0.2
    done
}

# Stops the cluster started in DIR: cancels its jobs, stops slurmd, slurmctld
# and munged (SIGTERM, then SIGKILL after a few seconds), then kills any
# remaining process of this cluster (slurmstepd, job tasks).  Harmless when
# nothing runs, so it can be called twice and from an EXIT trap, and it also
# works after DIR has been removed (then only the final sweep applies).
slurm_cluster_stop() {
    local dir daemon pid left
    if (($# != 1)); then
        _slurm_cluster_log "usage: slurm_cluster_stop DIR"
        return 2
    fi
    dir=$(_slurm_cluster_dir "$1")
    local PATH=$_slurm_cluster_path

    # Cancelling lets slurmstepd end the jobs' processes (SIGTERM, KillWait,
    # SIGKILL) instead of orphaning them when the daemons die.
    if pid=$(_slurm_cluster_pidfile_pid "$dir" "$dir/run/slurmctld.pid") &&
        [[ -r $dir/etc/slurm.conf ]]; then
        local -a jobs=()
        mapfile -t jobs < <(SLURM_CONF=$dir/etc/slurm.conf timeout 10 \
            squeue --noheader --format=%A 2>/dev/null || true)
        if ((${#jobs[@]})); then
            SLURM_CONF=$dir/etc/slurm.conf timeout 10 scancel "${jobs[@]}" 2>/dev/null || true
            local deadline=$((SECONDS + 15))
            while ((SECONDS < deadline)) &&
                [[ -n "$(SLURM_CONF=$dir/etc/slurm.conf timeout 10 squeue --noheader --format=%A 2>/dev/null || true)" ]]; do
                sleep 0.2
            done
        fi
    fi

    # slurmd first, so that slurmctld does not see a node going down while
    # jobs are still accounted on it; munged last as the others talk to it.
    for daemon in slurmd slurmctld munged; do
        if pid=$(_slurm_cluster_pidfile_pid "$dir" "$dir/run/$daemon.pid"); then
            _slurm_cluster_terminate 5 "$pid"
        fi
    done

    # Whatever is left (slurmstepd, job tasks, a daemon whose pid file was
    # lost) gets a short grace period, then SIGKILL.
    local -a rest=()
    mapfile -t rest < <(_slurm_cluster_pids "$dir" | sort -u)
    _slurm_cluster_terminate 2 "${rest[@]}"
    left=$(_slurm_cluster_pids "$dir" | sort -u | tr '\n' ' ')
    if [[ -n $left ]]; then
        _slurm_cluster_log "processes still alive after stop: $left"
        return 1
    fi

    # The daemons were re-parented to init, which reaps them.  Some minimal
    # container inits only do so every couple of seconds; wait a little so
    # that a `pgrep slurm` right after this returns nothing.  Zombies cannot
    # be attributed to a cluster, so this may also wait for another one's.
    local deadline=$((SECONDS + 3))
    while ((SECONDS < deadline)) &&
        pgrep --runstates Z 'munged|slurm' >/dev/null; do
        sleep 0.1
    done
    return 0
}

# Waits until no task of job JOBID (an array job id, a plain job id or a
# single array task like 123_4) is pending, running or otherwise unfinished.
# Returns 1 on timeout (after printing the job's state) or if squeue keeps
# failing.
slurm_wait_job() {
    if (($# < 1 || $# > 2)); then
        _slurm_cluster_log "usage: slurm_wait_job JOBID [TIMEOUT_S]"
        return 2
    fi
    local jobid=$1 timeout=${2:-60} deadline out
    local PATH=$_slurm_cluster_path
    # Every state that is not final; squeue's default omits e.g. SUSPENDED.
    local states=PENDING,RUNNING,SUSPENDED,COMPLETING,CONFIGURING,REQUEUED,REQUEUE_HOLD,REQUEUE_FED,RESIZING,SIGNALING,STAGE_OUT,STOPPED
    deadline=$((SECONDS + timeout))
    while :; do
        # Listing all jobs instead of using --jobs avoids squeue's "Invalid
        # job id" error once a finished job has been purged (MinJobAge).
        if out=$(squeue --noheader --array --states="$states" --format='%F %A %i %T' 2>&1); then
            if ! awk -v j="$jobid" '$1 == j || $2 == j || $3 == j { f = 1 } END { exit !f }' <<<"$out"; then
                return 0
            fi
        fi
        if ((SECONDS >= deadline)); then
            _slurm_cluster_log "job $jobid not finished after ${timeout}s:"
            printf '%s\n' "$out" >&2
            return 1
        fi
        sleep 0.25
    done
}

# For test scripts: a work folder WORK with the cluster in WORK/cluster (globals `work` and
# `cluster`), stopped and removed at exit whatever happens. On failure, once the cluster has
# started (the caller sets started=1), the queue and the daemons' logs are printed, and then
# whatever the caller's `slurm_test_on_failure` function prints, if it defines one.
slurm_test_setup() {
    work=$1
    cluster=$work/cluster
    mkdir "$cluster"
    started=0
    trap _slurm_test_cleanup EXIT
    # Ctrl-C and kill also go through the cleanup, with a failure status.
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

_slurm_test_cleanup() {
    local rc=$?
    trap - EXIT
    if ((rc != 0 && started)); then
        timeout 10 squeue --all --array --states=all >&2 2>/dev/null || true
        slurm_cluster_logs "$cluster"
        if declare -F slurm_test_on_failure >/dev/null; then slurm_test_on_failure; fi
    fi
    slurm_cluster_stop "$cluster" || rc=1
    rm -rf "$work"
    exit "$rc"
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
