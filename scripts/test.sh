#!/usr/bin/env bash
# The whole test suite: release build and tests (with the sandbox on cgroup v2 in a QEMU guest,
# tests/vm), the same tests under AddressSanitizer + UndefinedBehaviorSanitizer, and a short
# libFuzzer run of the protocol parsers (clang).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="$(nproc)"

bash scripts/setup.sh

echo "== release build (g++) and tests"
# The cgroup v2 guest (tests/vm) is made once and cached; where it is not yet, it is made while
# the release build compiles (it mostly downloads and unpacks), for the ctest vm_cgroup_v2.
mkdir -p build
python3 tests/vm/image.py >build/vm-image.log 2>&1 &
cmake --preset release -DARENA_WERROR=ON >/dev/null
cmake --build --preset release -j "$jobs"
# The Morris endgame databases every engine reads (docs/endgames.md); the tests do not need them.
build/release/arena endgames build morris
wait || true  # for the guest (where it cannot be made, vm_cgroup_v2 skips, saying why)
ctest --preset release -j "$jobs"

# The sanitizer build is clang's: with -Werror it is also the proof that clang compiles every
# file without a warning (the release build is g++'s), so no third full build is needed.
echo "== AddressSanitizer + UndefinedBehaviorSanitizer build (clang, warnings are errors) and tests"
cmake --preset sanitize -DARENA_WERROR=ON >/dev/null
cmake --build --preset sanitize -j "$jobs"
ctest --preset sanitize -j "$jobs"

echo "== libFuzzer run of the line-protocol parser (clang)"
cmake --preset fuzz -DARENA_WERROR=ON >/dev/null
cmake --build --preset fuzz -j "$jobs" --target fuzz_course_lines fuzz_java_serial
mkdir -p build/fuzz/corpus
cp -n fuzz/corpus/course_lines/* build/fuzz/corpus/ 2>/dev/null || true
./build/fuzz/fuzz_course_lines -max_total_time="${ARENA_FUZZ_SECONDS:-30}" -max_len=4096 \
  -print_final_stats=1 build/fuzz/corpus 2>&1 | tail -n 12
echo "== libFuzzer run of the Java serialization reader (clang)"
mkdir -p build/fuzz/corpus-java
cp -n fuzz/corpus/java_serial/* build/fuzz/corpus-java/ 2>/dev/null || true
./build/fuzz/fuzz_java_serial -max_total_time="${ARENA_FUZZ_SECONDS:-30}" -max_len=20000 \
  -print_final_stats=1 build/fuzz/corpus-java 2>&1 | tail -n 12
echo "fuzz: no crash"
