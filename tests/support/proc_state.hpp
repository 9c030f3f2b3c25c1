#pragma once
// Whether a process still runs, from /proc: a zombie (dead, not yet reaped) does not count.
#include <sys/types.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

namespace arena::testing {

inline bool process_running(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  const auto close = line.rfind(')');
  if (close == std::string::npos || close + 2 >= line.size()) return false;
  const char state = line[close + 2];
  return state != 'Z' && state != 'X';
}

// Waits up to `timeout` for the process to stop running; true when it has.
inline bool process_ends_within(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (process_running(pid)) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace arena::testing
