#pragma once
// A bot as a child process: a shell command in its own process group, talking on pipes. Every
// read and write has a deadline, lines are bounded, and the user-CPU time of the whole group is
// measured, so nothing the bot does can hang or crash the referee.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/line_splitter.hpp"
#include "sandbox/capped_log.hpp"
#include "sandbox/sandbox.hpp"

namespace arena {

// A bot's stderr: ours, nowhere, or a file that keeps its last bytes (PipedChildOptions).
enum class BotStderr { Inherit, Discard, File };

struct ReadLimits {
  std::chrono::milliseconds wall{10'000};
  std::optional<std::chrono::microseconds> cpu;  // user-CPU of the group since `cpu_since`
  std::chrono::microseconds cpu_since{0};
};

// LimitBroken: the bot's sandbox saw it break a limit (memory, tasks); see ChildProcess::jail().
enum class ReadStatus { Line, WallTimeout, CpuTimeout, Closed, TooLong, LimitBroken };

struct ReadOutcome {
  ReadStatus status = ReadStatus::Line;
  std::string line;  // for Line
  std::chrono::milliseconds wall{0};
  std::chrono::microseconds cpu{0};  // the group's total user-CPU when the read ended
};

// A child that talks over the network, not on pipes (a tournament's agent, a referee run as a
// program): stdin from /dev/null, stdout and stderr appended to a file.
struct DetachedChildOptions {
  std::string command;                        // run by /bin/sh -c
  std::filesystem::path working_dir;          // empty: ours
  std::filesystem::path output_file;          // stdout + stderr go here; empty: /dev/null
  std::vector<std::string> env;               // "NAME=value" entries added to our environment
  std::uint64_t output_cap = 0;               // >0: the file keeps only the output's last bytes
  std::unique_ptr<AgentJail> jail = nullptr;  // runs the command confined; null: plain child
};

// A bot that talks on pipes (stdin/stdout).
struct PipedChildOptions {
  std::string command;  // run by /bin/sh -c
  std::size_t max_line_bytes = 4096;
  BotStderr err = BotStderr::Inherit;
  std::filesystem::path stderr_file = {};  // BotStderr::File: the last stderr_cap bytes go here
  std::uint64_t stderr_cap = 4 * kMiB;
  std::unique_ptr<AgentJail> jail = nullptr;  // runs the command confined; null: plain child
};

// The command text that makes /bin/sh pass `word` as one argument, whatever it contains.
std::string shell_quote(std::string_view word);

// Makes SIGINT, SIGTERM, SIGHUP and SIGQUIT kill the process groups of every live ChildProcess
// before this process dies of the signal: bots run in their own groups, so a Ctrl-C at the
// terminal does not reach them by itself.
void end_children_on_signals();

class ChildProcess {
 public:
  // Runs `/bin/sh -c command` in a new process group. Throws std::runtime_error when it cannot
  // (a command that does not exist starts a shell that exits with 127: that is a dead bot).
  ChildProcess(const std::string& command, std::size_t max_line_bytes, BotStderr err);
  explicit ChildProcess(PipedChildOptions options);
  // A child without pipes (read_line gives Closed, write gives false). Throws like the above.
  explicit ChildProcess(DetachedChildOptions options);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The next line on the child's stdout (without its end), or why there is none.
  ReadOutcome read_line(const ReadLimits& limits);
  // Writes all bytes within the timeout; false when the child closed its stdin, died or did not
  // read in time.
  bool write(std::string_view bytes, std::chrono::milliseconds timeout);
  void close_input();

  // User-CPU time of everything the child ran: its sandbox's cgroup, or every process in its
  // group (see process_group.hpp).
  std::chrono::microseconds cpu_time();
  // User + system CPU time where the sandbox measures it; else the group's user-CPU time.
  std::chrono::microseconds total_cpu_time();
  // The child's sandbox, or null.
  AgentJail* jail() { return jail_.get(); }
  // Waits up to `timeout` for the child (the shell) to exit; true when it has.
  bool wait_exit(std::chrono::milliseconds timeout);
  // Kills the whole process group (and everything in the child's sandbox) and reaps the child.
  void kill_group();
  // "exited with status 3", "killed by signal 11", or "still running".
  std::string exit_description();
  // Whether the child (the shell) has ended; never blocks.
  bool ended() { return reap(false); }
  // Whether it has ended with exit status 0.
  bool exited_cleanly();
  // Sends `signal` to the whole process group (while the child is not reaped).
  void signal_group(int signal);

  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;  // also the process group id
  int in_fd_ = -1, out_fd_ = -1;
  LineSplitter lines_;
  bool out_closed_ = false;
  std::optional<int> wait_status_;
  std::chrono::microseconds reaped_cpu_{0};  // of the child itself once reaped

  std::unique_ptr<AgentJail> jail_;
  std::unique_ptr<CappedLog> log_;

  bool reap(bool block);
  void spawn(const char* command, void* file_actions, const std::vector<std::string>& env);
  // Starts the child inside jail_: fork, join its cgroup, pin its cores, exec bubblewrap. The
  // fds become the child's 0, 1 and 2 (-1: keep ours).
  void spawn_jailed(const std::string& command, const std::vector<std::string>& env,
                    const std::filesystem::path& working_dir, int in, int out, int err);
};

// SIGKILLs the process groups of every live ChildProcess (for a thread that stops the program:
// no bot or agent may outlive it). With a `grace`, SIGTERM goes first and the groups get that
// long to end by themselves (a referee child then ends its own bots).
void kill_all_child_groups(std::chrono::milliseconds grace = std::chrono::milliseconds(0));

}  // namespace arena
