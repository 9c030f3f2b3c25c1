#pragma once
// What a search may spend, and a clock to check it against.
#include <chrono>
#include <cstdint>
#include <optional>

namespace arena {

struct SearchLimits {
  std::optional<int> max_depth;                   // plies
  std::optional<std::chrono::milliseconds> time;  // hard budget for this move
  std::optional<std::uint64_t> max_nodes;
};

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Deadline(std::optional<std::chrono::milliseconds> budget)
      : start_(Clock::now()), budget_(budget) {}
  std::chrono::milliseconds elapsed() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
  }
  Clock::duration since_start() const { return Clock::now() - start_; }
  std::optional<std::chrono::milliseconds> budget() const { return budget_; }
  bool expired() const { return budget_ && Clock::now() - start_ >= *budget_; }

 private:
  Clock::time_point start_;
  std::optional<std::chrono::milliseconds> budget_;
};

}  // namespace arena
