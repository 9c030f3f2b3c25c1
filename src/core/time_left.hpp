#pragma once
// The time left before a deadline, for waits and limits measured in whole milliseconds.
#include <algorithm>
#include <chrono>

namespace arena {

// Rounded up: 0 only once `deadline` has passed, so that a limit is never called before it is
// reached (a truncated 0.7 ms once ended a bot's turn that early).
inline std::chrono::milliseconds time_left(std::chrono::steady_clock::time_point deadline) {
  return std::max(
      std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()),
      std::chrono::milliseconds(0));
}

}  // namespace arena
