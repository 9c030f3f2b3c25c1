#!/bin/sh
# In the cgroup v2 guest, as root: gives the plain user 'arena' a delegated cgroup subtree, as
# systemd does for `systemd-run --user --scope -p Delegate=yes` (the folder, its cgroup.procs,
# cgroup.subtree_control and cgroup.threads owned by the user; the controllers enabled in the
# parent's cgroup.subtree_control; the user's shell moved into it), then runs the user's part
# (delegated-user-part.sh) there as that user. Usage: delegated-user.sh BUILD_DIR.
set -eu
build=${1:?usage: delegated-user.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=/sys/fs/cgroup
for c in memory pids cpuset cpu; do echo "+$c" >"$root/cgroup.subtree_control"; done
mkdir -p "$root/staff"  # an admin's own subtree, with every controller: Delegate=yes
echo "+memory +pids +cpuset +cpu" >"$root/staff/cgroup.subtree_control"
mkdir "$root/staff/arena-user"
for f in . cgroup.procs cgroup.subtree_control cgroup.threads; do
  chown arena:arena "$root/staff/arena-user/$f"
done
# The shell moves itself in (as root: moving needs the common parent's cgroup.procs), then
# becomes the user's.
exec sh -c 'echo $$ >"$1/cgroup.procs" && exec setpriv --reuid=arena --regid=arena \
  --init-groups env -i HOME=/home/arena USER=arena PATH=/usr/bin:/bin LANG=C.UTF-8 \
  sh "$2" "$3"' sh "$root/staff/arena-user" "$here/delegated-user-part.sh" "$build"
