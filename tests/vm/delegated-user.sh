#!/bin/sh
# In the cgroup v2 guest, as root: gives the plain user 'arena' a delegated cgroup subtree, as
# systemd does for `systemd-run --user --scope -p Delegate=yes` (the folder, its cgroup.procs,
# cgroup.subtree_control and cgroup.threads owned by the user; the controllers enabled in the
# parent's cgroup.subtree_control; the user's shell moved into it), then runs the user's part
# (delegated-user-part.sh) there as that user. First, a subtree without cpuset, as systemd's
# user manager delegates by default: the cpu protection must be off, saying why.
# Usage: delegated-user.sh BUILD_DIR. Exit status 0 when all passed.
set -eu
build=${1:?usage: delegated-user.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=/sys/fs/cgroup
for c in memory pids cpuset cpu; do echo "+$c" >"$root/cgroup.subtree_control"; done

# delegate PARENT CONTROLLERS: a subtree PARENT/arena-user for the user, the controllers given.
delegate() {
  mkdir -p "$1"
  echo "$2" >"$1/cgroup.subtree_control"
  mkdir "$1/arena-user"
  for f in . cgroup.procs cgroup.subtree_control cgroup.threads; do
    chown arena:arena "$1/arena-user/$f"
  done
}
# as_user CGROUP COMMAND...: a shell moved into CGROUP (as root: moving needs the common
# parent's cgroup.procs) that becomes the user's and runs COMMAND.
as_user() {
  sh -c 'cg=$1; shift; echo $$ >"$cg/cgroup.procs" && exec setpriv --reuid=arena \
    --regid=arena --init-groups env -i HOME=/home/arena USER=arena PATH=/usr/bin:/bin \
    LANG=C.UTF-8 "$@"' sh "$@"
}

echo "== delegated without cpuset (systemd's default: Delegate=pids memory cpu)"
delegate "$root/user-default" "+memory +pids +cpu"
check=$(as_user "$root/user-default/arena-user" "$build/arena" sandbox --check || true)
echo "$check" | grep -A1 -E "^  cpu "
if ! echo "$check" | grep -A1 -E "^  cpu +OFF" | grep -q "cpuset controller is not delegated"; then
  echo "FAIL: without cpuset, the cpu protection should be off, saying why"
  exit 1
fi

echo "== delegated with every controller (an admin's subtree, or Delegate=cpu cpuset io memory pids)"
delegate "$root/staff" "+memory +pids +cpuset +cpu"
as_user "$root/staff/arena-user" sh "$here/delegated-user-part.sh" "$build"
