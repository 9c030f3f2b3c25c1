#pragma once
// One shard of an event: a fixed part of its schedule that one process (a Slurm array task, a
// Kubernetes pod, or a machine of the staff's) plays on its own, writing only its own files in
// the shared event folder: shards/K-of-N.jsonl (its journal) and shards/K-of-N.alive (its sign of
// life), so that shards on different machines never write the same file.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/parse_result.hpp"

namespace arena::tournament {

struct Shard {
  int index = 1;  // K: 1..count
  int count = 1;  // N
  // Game i (0-based schedule index) belongs to shard i mod N + 1: every shard gets games from
  // the whole event, so slow participants are spread over all shards.
  bool owns(int game_index) const { return game_index % count + 1 == index; }
  std::string label() const;  // "K/N"
};

inline constexpr int kMaxShards = 100000;

// "K/N", 1 <= K <= N.
Parsed<Shard> parse_shard(std::string_view text);

inline constexpr const char* kShardsFolder = "shards";
std::filesystem::path shard_journal_path(const std::filesystem::path& event_dir, Shard s);
std::filesystem::path shard_alive_path(const std::filesystem::path& event_dir, Shard s);
// The shard a file in shards/ belongs to ("0003-of-0008.jsonl"), if it is one.
std::optional<Shard> shard_of_file(const std::filesystem::path& file);

// What a shard's .alive file says: who plays it, and whether it stopped.
struct ShardLife {
  std::string host;
  long pid = 0;
  std::string slurm_job;                      // "JOB_TASK" under Slurm, else ""
  std::string state;                          // "playing", "finished", "stopped"
  std::string detail;                         // why it stopped
  std::filesystem::file_time_type last_sign;  // the file's time: its last heartbeat
};
std::optional<ShardLife> read_shard_life(const std::filesystem::path& alive_file);

// Keeps a shard's .alive file fresh while the shard plays: rewritten at start and then every
// `interval` by a thread of its own; the final state is written by finish().
class ShardHeartbeat {
 public:
  ShardHeartbeat(std::filesystem::path alive_file, std::chrono::seconds interval);
  ~ShardHeartbeat();
  ShardHeartbeat(const ShardHeartbeat&) = delete;
  ShardHeartbeat& operator=(const ShardHeartbeat&) = delete;
  // Stops the heartbeat and writes the final state ("finished" or "stopped").
  void finish(std::string_view state, std::string_view detail);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Writes a stopped state into a shard's .alive file from a signal-handling thread (a shard
// stopped by Slurm's SIGTERM says so at once instead of looking dead later).
void mark_shard_stopped(const std::filesystem::path& alive_file, std::string_view detail);

}  // namespace arena::tournament
