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

// The time manager, between iterations: another iteration starts whenever time is left. An
// unfinished iteration still counts (the previous best move is searched first, and a move replaces
// it only when fully searched), the hard limit (the deadline, checked every 256 nodes) ends it in
// time, and a move's time cannot be saved for later moves, so stopping sooner only wastes it. (It
// used to start only when half of the next iteration was predicted to fit: Morris then used 568 ms
// of its 900 against Sanmill at 1 s a move, stopping at depth 15 where depth 18 saw a blockade.)
inline bool start_next_iteration(std::chrono::milliseconds spent,
                                 std::chrono::milliseconds budget) {
  return spent < budget;
}

}  // namespace arena
