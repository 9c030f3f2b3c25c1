#pragma once
// Looks for anything `arena handin check` (run by handin_cli.hpp) left behind.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "handin_cli.hpp"
#include "leftovers.hpp"
#include "process.hpp"

namespace arena::testing {

// Fails the test for a process with `marker` in its command line, a cgroup of the check
// (arena-<pid>, in any controller's hierarchy) or a mount of ours under `dir`.
inline void expect_nothing_left(const HandinVerdict& v, const std::string& marker,
                                const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  if (!marker.empty()) {
    expect_no_process_with(marker, /*grace=*/false);
  }
  const std::string cgroup = "arena-" + std::to_string(v.pid);
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator("/sys/fs/cgroup", ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() > 4) it.disable_recursion_pending();
    if (it->is_directory(ec) && it->path().filename().string().rfind(cgroup, 0) == 0)
      ADD_FAILURE() << "left behind: " << it->path();
  }
  std::ifstream mounts("/proc/self/mountinfo");
  std::string line;
  while (std::getline(mounts, line))
    EXPECT_EQ(line.find(dir.string()), std::string::npos) << "mount left behind: " << line;
}

}  // namespace arena::testing
