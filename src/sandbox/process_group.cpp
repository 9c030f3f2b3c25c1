#include "sandbox/process_group.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <thread>

namespace arena {
namespace {

struct ProcStat {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t pgrp = 0;
  long long utime = 0;   // clock ticks
  long long cutime = 0;  // of reaped children
};

// Reads /proc/<pid>/stat; false when the process is gone or the line is not as expected.
bool read_stat(pid_t pid, ProcStat& out) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[1024];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  // The command name is in parentheses and may itself contain spaces and parentheses.
  const std::string line(buf, static_cast<std::size_t>(n));
  const auto close = line.rfind(')');
  if (close == std::string::npos) return false;
  const char* p = line.c_str() + close + 1;
  long long fields[15] = {};
  for (int i = 0; i < 15; ++i) {
    while (*p == ' ') ++p;
    if (*p == '\0') return false;
    if (i == 0) {  // the state letter
      ++p;
      continue;
    }
    char* end = nullptr;
    fields[i] = std::strtoll(p, &end, 10);
    if (end == p) return false;
    p = end;
  }
  out.pid = pid;
  out.ppid = static_cast<pid_t>(fields[1]);
  out.pgrp = static_cast<pid_t>(fields[2]);
  out.utime = fields[11];
  out.cutime = fields[13];
  return true;
}

template <class F>
void for_each_process(F&& f) {
  DIR* dir = ::opendir("/proc");
  if (!dir) return;
  while (const dirent* e = ::readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || pid <= 0) continue;
    ProcStat st;
    if (read_stat(static_cast<pid_t>(pid), st)) f(st);
  }
  ::closedir(dir);
}

}  // namespace

std::chrono::microseconds group_user_cpu(pid_t pgid) {
  static const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  long long ticks = 0;
  for_each_process([&](const ProcStat& st) {
    if (st.pgrp == pgid) ticks += st.utime + st.cutime;
  });
  return std::chrono::microseconds(ticks * 1'000'000 /
                                   (ticks_per_second > 0 ? ticks_per_second : 100));
}

std::vector<pid_t> group_members(pid_t pgid) {
  std::vector<pid_t> out;
  for_each_process([&](const ProcStat& st) {
    if (st.pgrp == pgid) out.push_back(st.pid);
  });
  return out;
}

std::vector<pid_t> own_children() {
  const pid_t self = ::getpid();
  std::vector<pid_t> out;
  for_each_process([&](const ProcStat& st) {
    if (st.ppid == self) out.push_back(st.pid);
  });
  return out;
}

bool become_subreaper() {
  return ::prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0;
}

void end_all_children(std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  while (std::chrono::steady_clock::now() < deadline) {
    const auto children = own_children();
    if (children.empty()) return;
    for (pid_t pid : children) ::kill(pid, SIGKILL);
    // Reap what has died; a killed child's own children are adopted by us and found next round.
    for (pid_t pid : children) {
      int status = 0;
      while (::waitpid(pid, &status, WNOHANG) == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
}

}  // namespace arena
