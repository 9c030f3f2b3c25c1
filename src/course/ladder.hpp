#pragma once
// The ladder, all term long: the current version of every student (their newest accepted,
// not excluded hand-in) plays the others in jobs that workers lease over the API. A thread keeps
// a few pairings queued (matchmaking.hpp), cancels queued games of versions that are no longer
// current, and hands leases that ran out to the next worker. Staff may pause it; the ratings
// come from every rated game among the current versions.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "course/matchmaking.hpp"
#include "course/store.hpp"

namespace arena::course {

struct LadderOptions {
  MatchmakingPolicy policy;
  int queued_games = 8;    // ladder games kept waiting for a worker
  int lease_seconds = 60;  // a worker that stops answering for this long loses its job
};

struct LadderRow {
  Submission version;
  LadderStanding standing;
};

class Ladder {
 public:
  Ladder(Store& store, LadderOptions options);
  ~Ladder();
  Ladder(const Ladder&) = delete;
  Ladder& operator=(const Ladder&) = delete;

  void start();
  void stop();
  void wake();  // something changed (a game finished, a version was accepted)

  bool paused();
  void set_paused(bool paused);
  const LadderOptions& options() const { return options_; }

  // The current versions, best first (kept until the store changes).
  std::vector<LadderRow> standings();

  // One round of the thread's work (expired leases, cancelled and new games), done now.
  void tend();

 private:
  Store& store_;
  LadderOptions options_;
  std::mt19937_64 rng_;
  std::thread thread_;
  std::mutex mutex_;        // rng_ and the thread's wake-ups
  std::mutex cache_mutex_;  // the standings' cache (a fit takes long: wake() must not wait)
  std::condition_variable wake_;
  bool woken_ = false;
  std::atomic<bool> stopping_{false};
  std::uint64_t cached_generation_ = ~std::uint64_t{0};
  std::vector<LadderRow> cached_;
  std::vector<std::int64_t> cached_ids_;  // the versions and games the cache was fitted to
  std::size_t cached_games_ = 0;
  std::vector<std::int64_t> planned_for_;  // the field the queued games were planned for

  void loop();
};

}  // namespace arena::course
