#!/bin/sh
# The user's part of delegated-user.sh: a plain user whose shell is in a delegated cgroup
# subtree runs `arena sandbox --check` and two sandboxed events, without root.
# Usage: delegated-user-part.sh BUILD_DIR. Exit status 0 when all passed.
set -u
build=${1:?usage: delegated-user-part.sh BUILD_DIR}
arena=$build/arena
failed=0
fail() { echo "FAIL: $*"; failed=1; }
start=$(date +%s)
took() { echo "($1: $(($(date +%s) - start)) s)"; start=$(date +%s); }

echo "user $(id -un) (uid $(id -u)), in cgroup $(cut -d: -f3 /proc/self/cgroup)"
check=$("$arena" sandbox --check)
echo "$check"
# A delegated user keeps every protection but the network of TCP agents (a network namespace per
# game needs root); stdin/stdout bots get an empty one from bubblewrap.
for p in memory cpu processes files user; do
  echo "$check" | grep -Eq "^  $p +on " || fail "'$p' should be on for a delegated user"
done
echo "$check" | grep -Eq "^  network +on .*\[stdin/stdout bots\]" ||
  fail "the network of stdin/stdout bots should be on"
echo "$check" | grep -Eq "^  network +OFF .*\[TCP agents\]" ||
  fail "the network of TCP agents needs root: it should be OFF, with why"
took "sandbox --check"

work=$(mktemp -d /tmp/delegated.XXXXXX)
cd "$work" || exit 1
echo "== Fission, --sandbox auto: a memory hog (64 MB) and a fork bomb (32 tasks) lose"
cat >participants.txt <<PARTICIPANTS
hog: memory=64 command $build/hostile_agent hog 512
bomb: processes=32 command $build/hostile_agent forkbomb
rnd: random
PARTICIPANTS
# They never connect: a game ends when the agent dies (the hog) or at the connect timeout.
out=$("$arena" tournament fission -f participants.txt -o fission --sandbox auto \
  --connect-timeout 10 --moves-per-player 5 --warmup 0 2>&1)
status=$?
echo "$out" | grep -E "^Sandbox|warning|^  network" | head -5
[ "$status" -eq 0 ] || fail "the Fission event exited with $status: $out"
echo "$out" | grep -q "Sandbox: memory, cpu, processes, files, user" ||
  fail "the Fission event should run with memory, cpu, processes, files, user"
for reason in memory-limit too-many-processes; do
  n=$(grep -o "\"reason\": *\"$reason\"" fission/results.json | wc -l)
  echo "games lost with $reason: $n"
  [ "$n" -ge 2 ] || fail "expected at least 2 games lost with $reason"
done
took "Fission event"

echo "== Paper Soccer, --sandbox required (bots on stdin/stdout: every protection)"
out=$("$arena" tournament soccer -a random -a greedy -o soccer --sandbox required \
  --move-time 2000 --connect-timeout 60 2>&1)
status=$?
echo "$out" | grep -E "^Sandbox" | head -2
[ "$status" -eq 0 ] || fail "the Paper Soccer event exited with $status: $out"
echo "$out" | grep -q "Sandbox: memory, cpu, processes, files, network, user" ||
  fail "the Paper Soccer event should run with every protection"
took "Paper Soccer event"

echo "== what is left in the delegated subtree"
find /sys/fs/cgroup/staff/arena-user -mindepth 1 -type d
for d in /sys/fs/cgroup/staff/arena-user/arena-*; do
  case $d in
    */arena-others | *-self) ;;
    *) [ -d "$d" ] && fail "left behind: $d" ;;
  esac
done
[ -z "$(pgrep -u arena -f hostile_agent)" ] || fail "agent processes left: $(pgrep -a -f hostile_agent)"
cd / && rm -rf "$work"
exit $failed
