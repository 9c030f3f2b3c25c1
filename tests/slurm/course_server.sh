# shellcheck shell=bash
# What the course tests on the test cluster share (sourced after cluster.sh): a course server
# started in the background ($server_pid) and stopped whatever happens, submissions in flight
# ($submit_pids), and waits bounded by the test's own time limit.
#
# The test sets `python`, defines course_test_save_state (called on failure while the server
# still answers: save what explains it under $work) and calls course_test_start LIMIT_SECONDS.

server_pid=
submit_pids=()

stop_server() {
    [ -n "$server_pid" ] || return 0
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

# The server goes too, whatever happens; then slurm_test_setup's cleanup (the cluster, $work).
course_test_cleanup() {
    local rc=$?
    set +e
    if ((rc != 0)) && [ -n "$server_pid" ]; then course_test_save_state; fi
    ((${#submit_pids[@]} == 0)) || kill "${submit_pids[@]}" 2>/dev/null
    stop_server
    (exit "$rc")
    _slurm_test_cleanup
}

# Starts the test's clock: every wait ends within $1 seconds of now, whatever it waits for.
course_test_start() {
    t0=$SECONDS
    end=$((SECONDS + $1))
    trap course_test_cleanup EXIT
}
step() { echo "[$((SECONDS - t0)) s] $*"; }
# $1 seconds, or what is left of the test's time if that is less (at least 1).
left() {
    local s=$(((end - SECONDS) < $1 ? end - SECONDS : $1))
    echo $((s < 1 ? 1 : s))
}
# Waits until command "$@" succeeds, for at most $1 seconds.
wait_for() {
    local deadline
    deadline=$((SECONDS + $(left "$1")))
    shift
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.2
    done
}

# $work/bot.zip: a student's hand-in of the test bot (its C++ source from between the raw
# string's markers in tests/support/soccer_bot_source.hpp, and a Makefile), slowed down by $1
# microseconds a turn (a game then lasts long enough to be cut off; 0: as fast as it goes).
# shellcheck disable=SC2154  # work, here and python are the test's
course_test_bot_zip() {
    local slow=$1
    mkdir -p "$work/bot/student"
    sed -n '/R"CPP(/,/)CPP"/p' "$here/../support/soccer_bot_source.hpp" | sed '1d;$d' |
        sed "s/^      std::vector<int> path;\$/      usleep($slow);\n&/" >"$work/bot/student/bot.cpp"
    grep -q 'usleep' "$work/bot/student/bot.cpp" || fail "the bot's source is not as expected"
    printf 'build:\n\tg++ -std=c++17 -O1 -include unistd.h -o bot bot.cpp\nclean:\n\trm -f bot\n' \
        >"$work/bot/student/Makefile"
    (cd "$work/bot" && "$python" -c '
import sys, zipfile
with zipfile.ZipFile("../bot.zip", "w") as z:
    for name in sys.argv[1:]: z.write(name)' student student/bot.cpp student/Makefile)
}
