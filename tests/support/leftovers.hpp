#pragma once
// What a run of arena may leave on the machine: processes, cgroups and mounts. Tests of hostile
// code take a snapshot before and look again after: nothing of the run may remain.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/kernel_file.hpp"

namespace arena::testing {

// "PID: command line" of the running processes (not the caller) whose command line holds
// `marker`.
inline std::vector<std::string> processes_with(const std::string& marker) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (name == std::to_string(::getpid())) continue;
    std::string cmd = read_kernel_file(it->path() / "cmdline");  // "" if it ended
    for (char& c : cmd)
      if (c == '\0') c = ' ';
    if (cmd.find(marker) != std::string::npos) found.push_back(name + ": " + cmd);
  }
  return found;
}

// Like processes_with, after giving killed processes up to 5 s to be gone from /proc.
inline std::vector<std::string> processes_left(const std::string& marker) {
  for (int i = 0; i < 100 && !processes_with(marker).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return processes_with(marker);
}

// Fails the test for a process with `marker` in its command line: at once, or, with `grace`,
// one that outlives processes_left's wait.
inline void expect_no_process_with(const std::string& marker, bool grace = true) {
  const auto left = grace ? processes_left(marker) : processes_with(marker);
  EXPECT_TRUE(left.empty()) << left.size() << " left, e.g. " << left.front();
}

// The cgroup folders arena process `pid` made and left (arena-PID..., in any hierarchy).
inline std::vector<std::filesystem::path> arena_cgroups_of(pid_t pid) {
  namespace fs = std::filesystem;
  const std::string prefix = "arena-" + std::to_string(pid);
  std::vector<fs::path> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator("/sys/fs/cgroup", ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() > 4) it.disable_recursion_pending();
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) == 0 &&
        (name.size() == prefix.size() ||
         !std::isdigit(static_cast<unsigned char>(name[prefix.size()]))) &&
        it->is_directory(ec))
      found.push_back(it->path());
  }
  return found;
}

// This process's mounts, one line of /proc/self/mountinfo each.
inline std::set<std::string> mounts() {
  std::ifstream in("/proc/self/mountinfo");
  std::set<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.insert(line);
  return lines;
}

}  // namespace arena::testing
