#!/usr/bin/env bash
# The ctest vm_cgroup_v2: the agents' sandbox on a machine with cgroup v2 alone, in a Debian 12
# guest (tests/vm/vm.py): as root, `arena sandbox --check` and the sandbox test group; as a plain
# user in a delegated cgroup subtree, `arena sandbox --check` and two sandboxed events.
#
# Usage: cgroup_v2_test.sh BUILD_DIR [GTEST_FILTER]. BUILD_DIR holds arena, sandbox_tests and
# hostile_agent. Exit status: 0 passed; 77 skipped (this machine cannot make or boot the guest:
# the reason on one line); anything else failed.
# Environment: ARENA_VM_TIMEOUT (seconds the guest may run, default 900), ARENA_VM_ACCEL
# (kvm, tcg or auto), ARENA_VM_JDK=0 (a guest without the JDK: the Java test skips),
# XDG_CACHE_HOME (where the guest is cached).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "${1:-}" = "--help" ]; then sed -n '2,11p' "$0"; exit 0; fi
build=$(realpath "${1:?usage: cgroup_v2_test.sh BUILD_DIR [GTEST_FILTER]}")
command -v python3 >/dev/null || { echo "vm: skipped: python3 is missing"; exit 77; }
# The guest emulates its CPUs (TCG) unless KVM works: the tests give agents that much more time
# to start (ARENA_TEST_TIME_SCALE); what they assert stays the same.
exec python3 "$here/vm.py" run --timeout "${ARENA_VM_TIMEOUT:-900}" \
  --env ARENA_TEST_TIME_SCALE="${ARENA_TEST_TIME_SCALE:-10}" -- \
  sh "$here/guest-checks.sh" "$build" ${2:+"$2"}
