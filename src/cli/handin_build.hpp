#pragma once
// The build step of `arena handin check`: the recipe's build command run in the hand-in's folder
// inside the sandbox (no network, that folder writable, nothing else of ours), within a
// wall-clock timeout and memory and process limits, its output kept in a capped log.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sandbox/sandbox.hpp"

namespace arena::cli {

struct BuildLimits {
  std::chrono::seconds timeout{300};
  std::chrono::seconds cpu_time{600};  // of all its processes together
  std::uint64_t memory_bytes = 2048 * kMiB;
  int max_processes = 256;
  std::uint64_t log_bytes = 4 * kMiB;
};

struct BuildOutcome {
  bool ok = false;
  std::string failure;  // "the build failed (exit 2)", "the build took longer than 3 s", ...
  double seconds = 0;
  std::string status;  // "exited with status 0"
};

// Runs `argv` in `root` (made writable for the sandbox's user) with its output in `log`.
BuildOutcome run_build(const std::vector<std::string>& argv, const std::filesystem::path& root,
                       const std::filesystem::path& log, const BuildLimits& limits,
                       SandboxMode mode);

// The last `n` lines of a file, each indented for a report.
std::string last_lines(const std::filesystem::path& file, std::size_t n);

}  // namespace arena::cli
