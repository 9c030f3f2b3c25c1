#pragma once
// The job files of an event played in shards on a cluster: a Slurm batch script for a job array
// (one array task per shard) and a Kubernetes Indexed Job (one completion index per shard). Each
// task runs `arena tournament play DIR --shard K/N` on the shared event folder.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

#include "tournament/journal.hpp"

namespace arena::tournament {

struct ClusterJobOptions {
  int shards = 1;
  int games_per_task = 1;              // games a task plays at once (its -j)
  std::chrono::minutes time_limit{0};  // 0: estimated from the event
  std::string partition, account;      // Slurm; empty: the cluster's defaults
  std::filesystem::path arena_binary;  // Slurm: the binary every node runs (a shared path)
  std::string image = "arena:latest";  // Kubernetes: an image with arena on its PATH
  std::string claim = "arena-events";  // Kubernetes: the volume claim holding the event folder
  std::filesystem::path mount;         // where the claim is mounted; empty: the event's parent
};

// What one task needs, from the event's agent limits and the games it plays at once.
struct TaskResources {
  int cpus = 1;
  std::uint64_t memory_mib = 0;
  std::chrono::minutes time{0};
  std::string time_basis;  // how the time was estimated, for the script's comment
};
TaskResources task_resources(const EventJournals& event, const ClusterJobOptions& options);

// `dir` must be absolute: the tasks run elsewhere.
std::string slurm_script(const std::filesystem::path& dir, const EventJournals& event,
                         const ClusterJobOptions& options);
std::string kubernetes_job(const std::filesystem::path& dir, const EventJournals& event,
                           const ClusterJobOptions& options);

// Slurm's time format: "D-HH:MM:SS".
std::string slurm_time(std::chrono::minutes m);

// The #SBATCH lines of a job array of `tasks` tasks, each one task with these resources, its
// output appended to LOGS/JOB_TASK.out, requeued when a node fails.
struct SlurmArray {
  std::string name;
  int tasks = 1, cpus = 1;
  std::uint64_t memory_mib = 0;
  std::chrono::minutes time{0};
  std::filesystem::path logs;
  std::string partition, account;  // empty: the cluster's defaults
};
std::string slurm_array_lines(const SlurmArray& a);

}  // namespace arena::tournament
