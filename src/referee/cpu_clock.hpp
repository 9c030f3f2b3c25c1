#pragma once
// The CPU time an agent has used so far, as a referee's hook (a sandbox's cgroup or the agent's
// process group measures it), and a move's share of it.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "core/side.hpp"

namespace arena {

using CpuClock = std::function<std::optional<std::chrono::microseconds>(Side)>;

// The reading at the start of a turn (nullopt without a clock).
inline std::optional<std::chrono::microseconds> cpu_reading(const CpuClock& clock, Side side) {
  return clock ? clock(side) : std::nullopt;
}

// The milliseconds of CPU `side` used since `start`, when both readings exist.
inline std::optional<std::int64_t> cpu_ms_since(const CpuClock& clock, Side side,
                                                std::optional<std::chrono::microseconds> start) {
  if (!start) return std::nullopt;
  const auto now = cpu_reading(clock, side);
  if (!now) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(*now - *start).count();
}

}  // namespace arena
