#include "course/ladder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

namespace arena::course {
namespace {

std::vector<LadderGame> ladder_games(const std::vector<RatedGame>& rated) {
  std::vector<LadderGame> out;
  out.reserve(rated.size());
  for (const RatedGame& g : rated) out.push_back({g.white, g.black, g.white_score});
  return out;
}

}  // namespace

Ladder::Ladder(Store& store, LadderOptions options)
    : store_(store), options_(options), rng_(std::random_device{}()) {}

Ladder::~Ladder() {
  stop();
}

void Ladder::start() {
  thread_ = std::thread([this] { loop(); });
}

void Ladder::stop() {
  stopping_.store(true);
  wake();
  if (thread_.joinable()) thread_.join();
}

void Ladder::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_.notify_all();
}

bool Ladder::paused() {
  return store_.setting("ladder_paused").value_or("0") == "1";
}

void Ladder::set_paused(bool paused) {
  store_.set_setting("ladder_paused", paused ? "1" : "0");
  wake();
}

std::vector<LadderRow> Ladder::standings() {
  std::lock_guard lock(cache_mutex_);
  const auto generation = store_.generation();
  if (generation == cached_generation_) return cached_;
  const std::vector<Submission> versions = store_.current_versions();
  std::vector<std::int64_t> ids;
  std::map<std::int64_t, const Submission*> by_id;
  for (const Submission& s : versions) {
    ids.push_back(s.id);
    by_id[s.id] = &s;
  }
  const std::vector<RatedGame> rated = store_.rated_games(ids);
  // The fit costs (0.2 s for 300 versions): redone only for a new game or another field, not for
  // every change of the store (a lease, a hand-in being checked).
  if (ids != cached_ids_ || rated.size() != cached_games_) {
    cached_.clear();
    for (const LadderStanding& st : rate_ladder(ids, ladder_games(rated), options_.policy))
      cached_.push_back({*by_id.at(st.version), st});
    cached_ids_ = ids;
    cached_games_ = rated.size();
  } else {
    for (LadderRow& row : cached_) row.version = *by_id.at(row.version.id);  // names may change
  }
  cached_generation_ = generation;
  return cached_;
}

void Ladder::tend() {
  if (const int expired = store_.expire_leases(unix_now()); expired > 0)
    store_.log_event(
        "ladder", "lease-expired",
        fmt::format("{} game(s) back in the queue: their workers stopped answering", expired));
  const std::vector<LadderRow> rows = standings();
  std::vector<std::int64_t> current;
  for (const LadderRow& r : rows) current.push_back(r.version.id);
  store_.cancel_ladder_jobs_outside(current);
  if (current != planned_for_) {
    // A new version (or one fewer): the queue is planned again, the newcomer's games first.
    store_.drop_planned_ladder_jobs();
    planned_for_ = current;
  }
  if (paused() || rows.size() < 2) return;

  const std::set<std::int64_t> is_current(current.begin(), current.end());
  std::vector<Pairing> pending;
  int queued = 0;
  for (const Job& j : store_.jobs({"queued", "leased"}, 100000)) {
    if (j.kind != "ladder" || !j.white_submission || !j.black_submission) continue;
    if (!is_current.count(*j.white_submission) || !is_current.count(*j.black_submission)) continue;
    pending.push_back({*j.white_submission, *j.black_submission});
    if (j.state == "queued") ++queued;
  }
  const int wanted = options_.queued_games - queued;
  if (wanted <= 0) return;
  std::vector<LadderStanding> standing;
  for (const LadderRow& r : rows) standing.push_back(r.standing);
  std::vector<Pairing> next;
  {
    std::lock_guard lock(mutex_);
    next = choose_pairings(standing, ladder_games(store_.rated_games(current)), pending, wanted,
                           options_.policy, rng_);
  }
  std::map<std::int64_t, int> games;
  for (const LadderRow& r : rows) games[r.version.id] = r.standing.games;
  std::vector<Job> jobs;
  for (const Pairing& p : next) {
    Job j;
    j.kind = "ladder";
    // A version with few games plays before the queue's older games: the fewer, the sooner.
    j.priority =
        std::max(0, options_.policy.settle_games - std::min(games[p.white], games[p.black]));
    j.white_submission = p.white;
    j.black_submission = p.black;
    jobs.push_back(j);
  }
  store_.add_jobs(jobs);
}

void Ladder::loop() {
  while (!stopping_.load()) {
    try {
      tend();
    } catch (const std::exception& e) {
      fmt::print(stderr, "ladder: {}\n", e.what());
    }
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, std::chrono::seconds(1), [this] { return woken_ || stopping_.load(); });
    woken_ = false;
  }
}

}  // namespace arena::course
