#pragma once
// Runs `arena handin check` as the user would, and looks for anything it left behind.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace arena::testing {

struct HandinVerdict {
  int exit = -1;
  pid_t pid = -1;
  std::string out, err, last_line;
};

inline HandinVerdict run_handin_check(const std::vector<std::string>& args,
                                      std::chrono::seconds timeout) {
  std::vector<std::string> argv = {ARENA_BINARY, "handin", "check"};
  argv.insert(argv.end(), args.begin(), args.end());
  Process p(argv);
  HandinVerdict v;
  v.pid = p.pid();
  v.exit = p.wait(timeout).value_or(-1);
  v.out = p.out();
  v.err = p.err();
  std::string trimmed = v.out;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  v.last_line =
      trimmed.substr(trimmed.rfind('\n') == std::string::npos ? 0 : trimmed.rfind('\n') + 1);
  return v;
}

// Whether any process still runs with these words in its command line. A process that ends
// while it is read is skipped.
inline bool process_with(const std::string& marker) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    std::ifstream in(e.path() / "cmdline");
    std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (char& c : cmd)
      if (c == '\0') c = ' ';
    if (cmd.find(marker) != std::string::npos) return true;
  }
  return false;
}

// Fails the test for a process with `marker` in its command line, a cgroup of the check
// (arena-<pid>, in any controller's hierarchy) or a mount of ours under `dir`.
inline void expect_nothing_left(const HandinVerdict& v, const std::string& marker,
                                const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  if (!marker.empty()) {
    EXPECT_FALSE(process_with(marker)) << "left running: " << marker;
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
