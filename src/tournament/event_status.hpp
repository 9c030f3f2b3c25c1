#pragma once
// `arena tournament status DIR`: how far an event is, overall and shard by shard, read from its
// journals and the shards' signs of life, without writing anything.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tournament/shard.hpp"

namespace arena::tournament {

enum class ShardState { NotStarted, Playing, Finished, Stopped, LooksDead };
std::string_view shard_state_key(ShardState s);  // "not-started", "playing", ...

struct ShardStatus {
  Shard shard;
  int done = 0, total = 0;
  ShardState state = ShardState::NotStarted;
  std::string detail;  // who plays it, since when, why it stopped
};

struct EventStatus {
  std::string game_title;
  int done = 0, total = 0;
  int shard_count = 0;  // 0: not played in shards (or not known yet)
  std::vector<ShardStatus> shards;
  int unsharded_games = 0;  // games in the event's own journal
  int duplicates = 0;
};

// Shard count: `shards` if given, else the count the shards' journals use, else the count
// `arena tournament slurm` wrote the job for. A shard that is not finished looks dead when its
// sign of life is older than `stale`, or at once when its process is gone from this host.
EventStatus event_status(const std::filesystem::path& dir, std::optional<int> shards,
                         std::chrono::seconds stale);
std::string status_text(const EventStatus& s, const std::filesystem::path& dir);

// Where `arena tournament slurm` writes its job files.
inline constexpr const char* kClusterFolder = "cluster";
// Where `arena tournament slurm` notes the shard count of the jobs it wrote.
std::filesystem::path planned_shards_path(const std::filesystem::path& dir);

}  // namespace arena::tournament
