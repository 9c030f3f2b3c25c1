#pragma once
// Agents as child processes: started with an argv in their own process group (so a shell and
// everything it started can be killed together), stdin from /dev/null, stdout and stderr appended
// to a log file, no other descriptor inherited. A RunningProcess that goes away kills its group.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace arena {

struct ProcessOptions {
  std::vector<std::string> argv;      // argv[0] is looked up in PATH when it has no '/'
  std::filesystem::path working_dir;  // empty: the current directory
  std::filesystem::path output_file;  // stdout + stderr are appended here; empty: /dev/null
};

// How a process ended, as waitpid reported it.
struct ExitStatus {
  bool signaled = false;
  int code = 0;  // exit code, or the signal number when signaled

  bool clean() const { return !signaled && code == 0; }
  std::string describe() const;  // "exited with status 3", "was killed by signal 11 (SIGSEGV)"
};

class RunningProcess {
 public:
  // Starts the process; throws std::runtime_error with the reason when it cannot.
  explicit RunningProcess(const ProcessOptions& options);
  ~RunningProcess();
  RunningProcess(const RunningProcess&) = delete;
  RunningProcess& operator=(const RunningProcess&) = delete;

  pid_t pid() const { return pid_; }
  // The exit status once the process has ended (never blocks).
  std::optional<ExitStatus> poll();
  // Waits up to `timeout` for the process to end by itself.
  std::optional<ExitStatus> wait_for(std::chrono::milliseconds timeout);
  // Kills the whole process group with SIGKILL and reaps the process; gives its status (the
  // status it ended with by itself, if it had).
  ExitStatus kill_group();
  // Whether the process ended by itself (not by kill_group).
  bool ended_by_itself() const { return ended_by_itself_; }

 private:
  pid_t pid_ = -1;
  std::optional<ExitStatus> status_;
  bool ended_by_itself_ = false;
  bool reaped_ = false;
};

// Kills every process group started by RunningProcess that is still alive (for a signal handler
// thread that must leave no agents behind).
void kill_all_running_process_groups();

}  // namespace arena
