#pragma once
// What a search may spend, and a clock to check it against.
#include <algorithm>
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

// The time manager, between iterations (all in ms). The next iteration is predicted to cost the
// last one's time times the growth from the one before (clamped to 2..8; 4 while unknown). It
// starts when at least half of it fits in what is left of the budget: then it should finish, or
// at least search the previous best move (first, and the largest share of the work) and some
// others; an unfinished iteration still counts (a move replaces the previous best only when fully
// searched), and the hard limit (the deadline, checked every 256 nodes) ends it in time. The move
// time cannot be saved for later moves, so stopping sooner would only waste it.
inline bool start_next_iteration(double spent, double budget, double last, double previous) {
  const double growth = previous > 0.05 ? std::clamp(last / previous, 2.0, 8.0) : 4.0;
  return spent + 0.5 * last * growth <= budget;
}

}  // namespace arena
