#pragma once
// A bot as a child process: a shell command in its own process group, talking on pipes. Every
// read and write has a deadline, lines are bounded, and the user-CPU time of the whole group is
// measured, so nothing the bot does can hang or crash the referee.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/line_splitter.hpp"

namespace arena {

enum class BotStderr { Inherit, Discard };

struct ReadLimits {
  std::chrono::milliseconds wall{10'000};
  std::optional<std::chrono::microseconds> cpu;  // user-CPU of the group since `cpu_since`
  std::chrono::microseconds cpu_since{0};
};

enum class ReadStatus { Line, WallTimeout, CpuTimeout, Closed, TooLong };

struct ReadOutcome {
  ReadStatus status = ReadStatus::Line;
  std::string line;  // for Line
  std::chrono::milliseconds wall{0};
  std::chrono::microseconds cpu{0};  // the group's total user-CPU when the read ended
};

// Makes SIGINT, SIGTERM, SIGHUP and SIGQUIT kill the process groups of every live ChildProcess
// before this process dies of the signal: bots run in their own groups, so a Ctrl-C at the
// terminal does not reach them by itself.
void end_children_on_signals();

class ChildProcess {
 public:
  // Runs `/bin/sh -c command` in a new process group. Throws std::runtime_error when it cannot
  // (a command that does not exist starts a shell that exits with 127: that is a dead bot).
  ChildProcess(const std::string& command, std::size_t max_line_bytes, BotStderr err);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The next line on the child's stdout (without its end), or why there is none.
  ReadOutcome read_line(const ReadLimits& limits);
  // Writes all bytes within the timeout; false when the child closed its stdin, died or did not
  // read in time.
  bool write(std::string_view bytes, std::chrono::milliseconds timeout);
  void close_input();

  // User-CPU time of every process in the child's group (see process_group.hpp).
  std::chrono::microseconds cpu_time();
  // Waits up to `timeout` for the child (the shell) to exit; true when it has.
  bool wait_exit(std::chrono::milliseconds timeout);
  // Kills the whole process group and reaps the child.
  void kill_group();
  // "exited with status 3", "killed by signal 11", or "still running".
  std::string exit_description();

  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;  // also the process group id
  int in_fd_ = -1, out_fd_ = -1;
  LineSplitter lines_;
  bool out_closed_ = false;
  std::optional<int> wait_status_;
  std::chrono::microseconds reaped_cpu_{0};  // of the child itself once reaped

  bool reap(bool block);
};

}  // namespace arena
