#pragma once
// How much longer tests give agents where processes run slower than on real hardware. What a
// test asserts stays the same; only its times grow.
#include <algorithm>
#include <cstdlib>

namespace arena::testing {

// A machine much slower than real hardware (the cgroup v2 guest of tests/vm, whose CPUs are
// emulated) sets ARENA_TEST_TIME_SCALE: agents get that many times longer for their work.
inline int time_scale() {
  const char* s = std::getenv("ARENA_TEST_TIME_SCALE");
  return std::max(s ? std::atoi(s) : 1, 1);
}

// A sanitizer build's processes start slowly (arena under AddressSanitizer maps some 300 MB and
// takes 1 to 2 s before its first line on a busy two-core machine): a bot's first turn, which
// includes its start, gets this much longer there.
inline int sanitizer_time_scale() {
#if defined(__SANITIZE_ADDRESS__)
  return 4 * time_scale();
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 4 * time_scale();
#else
  return time_scale();
#endif
#else
  return time_scale();
#endif
}

}  // namespace arena::testing
