#!/bin/sh
# Runs in the cgroup v2 guest as root (tests/vm/vm.py run), over the host's build:
#   1. `arena sandbox --check` as root: every protection on;
#   2. the sandbox test group (sandbox_tests) as root;
#   3. a plain user in a delegated cgroup subtree (delegated-user.sh).
# Usage: guest-checks.sh BUILD_DIR [GTEST_FILTER]. Exit status 0 when all passed.
# The default filter leaves out the output cap's test: it needs no kernel protection, and a
# gigabyte through a pipe takes minutes on emulated CPUs.
set -u
build=$(cd "${1:?usage: guest-checks.sh BUILD_DIR [GTEST_FILTER]}" && pwd)
filter=${2:-Sandbox.*:-Sandbox.GigabyteOfOutputLeavesACappedLog}
here=$(cd "$(dirname "$0")" && pwd)
failed=""

echo "== guest: Linux $(uname -r), $(nproc) CPUs, $(free -m | awk '/^Mem:/ {print $2}') MB," \
  "/sys/fs/cgroup is $(stat -fc %T /sys/fs/cgroup)," \
  "controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"

echo "== arena sandbox --check (root)"
"$build/arena" sandbox --check || failed="$failed check-as-root"

echo "== sandbox tests (root): $filter"
start=$(date +%s)
"$build/sandbox_tests" --gtest_filter="$filter" --gtest_color=no || failed="$failed sandbox_tests"
echo "(sandbox tests: $(($(date +%s) - start)) s)"

echo "== a plain user in a delegated cgroup subtree"
sh "$here/delegated-user.sh" "$build" || failed="$failed delegated-user"

if [ -n "$failed" ]; then
  echo "== guest checks FAILED:$failed"
  exit 1
fi
echo "== guest checks passed"
