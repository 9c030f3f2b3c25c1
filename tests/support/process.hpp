#pragma once
// A child process with its stdout and stderr on pipes, for end-to-end tests of the arena binary.
// Every wait has a deadline; a child still running when the Process goes away is killed.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace arena::testing {

class Process {
 public:
  // Starts argv[0] (a path) with the arguments; throws std::runtime_error when it cannot.
  explicit Process(const std::vector<std::string>& argv);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // The next line the child writes to stdout (without "\n"), or nullopt at the deadline or when
  // the child closed its stdout.
  std::optional<std::string> read_stdout_line(std::chrono::milliseconds timeout);
  // Waits for the exit, collecting the output. The exit code (128 + signal if killed by one), or
  // nullopt if still running at the deadline.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  void kill(int signal);

  pid_t pid() const { return pid_; }
  // Everything written so far (stdout includes the lines already handed out).
  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1, err_fd_ = -1;
  std::string out_, err_;
  std::size_t out_consumed_ = 0;
  std::optional<int> status_;

  // Reads whatever is available within the timeout; false when both pipes are closed.
  bool pump(std::chrono::milliseconds timeout);
  bool reap(bool block);
};

}  // namespace arena::testing
