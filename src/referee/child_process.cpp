#include "referee/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "referee/process_group.hpp"

extern char** environ;

namespace arena {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How often the CPU clock of a silent bot is looked at.
constexpr milliseconds kCpuCheckInterval{50};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

milliseconds until(Clock::time_point t) {
  return std::max(std::chrono::duration_cast<milliseconds>(t - Clock::now()), milliseconds(0));
}

// A bot that closes its stdin must give us EPIPE, not a signal that kills the referee.
void ignore_sigpipe_once() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

// The process groups of live children, for the signal handler below: fixed slots of lock-free
// atomics, since a handler may not allocate or lock.
// Enough for a tournament's games at once (each: two agents, or a referee).
std::array<std::atomic<pid_t>, 1024> g_live_groups{};

// Spawning and stopping everything exclude each other: no child starts unregistered.
std::mutex& spawn_mutex() {
  static std::mutex m;
  return m;
}

void register_group(pid_t pgid) {
  for (auto& slot : g_live_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid)) return;
  }
}

void unregister_group(pid_t pgid) {
  for (auto& slot : g_live_groups) {
    pid_t expected = pgid;
    slot.compare_exchange_strong(expected, 0);
  }
}

extern "C" void kill_groups_and_die(int sig) {
  for (auto& slot : g_live_groups) {
    const pid_t pgid = slot.load();
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

std::chrono::microseconds rusage_user(const rusage& ru) {
  return std::chrono::seconds(ru.ru_utime.tv_sec) + std::chrono::microseconds(ru.ru_utime.tv_usec);
}

}  // namespace

std::string shell_quote(std::string_view word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

void kill_all_child_groups(milliseconds grace) {
  std::lock_guard lock(spawn_mutex());
  if (grace.count() > 0) {
    for (auto& slot : g_live_groups)
      if (const pid_t pgid = slot.load(); pgid > 0) ::kill(-pgid, SIGTERM);
    std::this_thread::sleep_for(grace);
  }
  for (auto& slot : g_live_groups)
    if (const pid_t pgid = slot.exchange(0); pgid > 0) ::kill(-pgid, SIGKILL);
}

void end_children_on_signals() {
  struct sigaction sa {};
  sa.sa_handler = kill_groups_and_die;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &sa, nullptr);
}

ChildProcess::ChildProcess(const std::string& command, std::size_t max_line_bytes, BotStderr err)
    : lines_(max_line_bytes) {
  ignore_sigpipe_once();
  int in_pipe[2], out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  if (err == BotStderr::Discard)
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  try {
    spawn(command.c_str(), &actions, {});
  } catch (...) {
    posix_spawn_file_actions_destroy(&actions);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) ::close(fd);
    throw;
  }
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  in_fd_ = in_pipe[1];
  out_fd_ = out_pipe[0];
  ::fcntl(in_fd_, F_SETFL, ::fcntl(in_fd_, F_GETFL) | O_NONBLOCK);
  ::fcntl(out_fd_, F_SETFL, ::fcntl(out_fd_, F_GETFL) | O_NONBLOCK);
}

ChildProcess::ChildProcess(const DetachedChildOptions& o) : lines_(1) {
  out_closed_ = true;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // Opened before the chdir below: a relative path is ours.
  const std::string out = o.output_file.empty() ? "/dev/null" : o.output_file.string();
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  if (!o.working_dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, o.working_dir.c_str());
  try {
    spawn(o.command.c_str(), &actions, o.env);
  } catch (...) {
    posix_spawn_file_actions_destroy(&actions);
    throw;
  }
  posix_spawn_file_actions_destroy(&actions);
}

// Starts `/bin/sh -c command` with the file actions given, in its own process group, with
// default signal handling, an empty signal mask and no descriptor but 0-2.
void ChildProcess::spawn(const char* command, void* file_actions,
                         const std::vector<std::string>& env) {
  auto* actions = static_cast<posix_spawn_file_actions_t*>(file_actions);
  // Sockets and pipes of other games in this process must not leak into the child (a child
  // holding another game's connection would keep it open after its player died).
  posix_spawn_file_actions_addclosefrom_np(actions, STDERR_FILENO + 1);
  // Own process group (so the whole child can be timed and killed), default signal handling and
  // an empty signal mask (ignored SIGPIPE or blocked SIGTERM would otherwise be inherited).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&defaults, sig);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> envp;
  std::vector<std::string> extra = env;
  for (char** e = environ; *e; ++e) envp.push_back(*e);
  for (auto& e : extra) envp.push_back(e.data());
  envp.push_back(nullptr);
  const char* argv[] = {"/bin/sh", "-c", command, nullptr};
  // The group is registered at once, so a stop signal never misses it.
  std::lock_guard lock(spawn_mutex());
  const int rc = ::posix_spawn(&pid_, "/bin/sh", actions, &attr, const_cast<char**>(argv),
                               env.empty() ? environ : envp.data());
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    pid_ = -1;
    throw std::runtime_error(std::string("cannot start /bin/sh: ") + std::strerror(rc));
  }
  register_group(pid_);
}

ChildProcess::~ChildProcess() {
  kill_group();
  close_fd(in_fd_);
  close_fd(out_fd_);
}

ReadOutcome ChildProcess::read_line(const ReadLimits& limits) {
  const auto start = Clock::now();
  const auto deadline = start + limits.wall;
  ReadOutcome out;
  auto finish = [&](ReadStatus status) {
    out.status = status;
    out.wall = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
    return out;
  };
  auto over_cpu = [&] {
    out.cpu = cpu_time();
    return limits.cpu && out.cpu - limits.cpu_since > *limits.cpu;
  };
  while (true) {
    if (auto line = lines_.next_line()) {
      // The CPU spent up to the answer counts, even when it was spent between two checks.
      if (over_cpu()) return finish(ReadStatus::CpuTimeout);
      out.line = std::move(*line);
      return finish(ReadStatus::Line);
    }
    if (lines_.overflowed()) return finish(ReadStatus::TooLong);
    if (out_closed_) {
      over_cpu();
      return finish(ReadStatus::Closed);
    }
    if (over_cpu()) return finish(ReadStatus::CpuTimeout);
    const milliseconds left = until(deadline);
    if (left.count() == 0) return finish(ReadStatus::WallTimeout);
    pollfd p{out_fd_, POLLIN, 0};
    const milliseconds wait = limits.cpu ? std::min(left, kCpuCheckInterval) : left;
    const int ready = ::poll(&p, 1, static_cast<int>(wait.count()));
    if (ready <= 0) continue;
    char buf[65536];
    const ssize_t got = ::read(out_fd_, buf, sizeof buf);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) {
      out_closed_ = true;
      continue;
    }
    lines_.feed(std::string_view(buf, static_cast<std::size_t>(got)));
  }
}

bool ChildProcess::write(std::string_view bytes, milliseconds timeout) {
  if (in_fd_ < 0) return false;
  const auto deadline = Clock::now() + timeout;
  while (!bytes.empty()) {
    const ssize_t n = ::write(in_fd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return false;  // EPIPE: nobody reads the bot's stdin any more
    const milliseconds left = until(deadline);
    if (left.count() == 0) return false;
    pollfd p{in_fd_, POLLOUT, 0};
    ::poll(&p, 1, static_cast<int>(left.count()));
  }
  return true;
}

void ChildProcess::close_input() {
  close_fd(in_fd_);
}

std::chrono::microseconds ChildProcess::cpu_time() {
  reap(false);
  return reaped_cpu_ + group_user_cpu(pid_);
}

bool ChildProcess::reap(bool block) {
  if (wait_status_) return true;
  if (pid_ <= 0) return false;
  int status = 0;
  rusage ru{};
  const pid_t r = ::wait4(pid_, &status, block ? 0 : WNOHANG, &ru);
  if (r != pid_) return false;
  wait_status_ = status;
  reaped_cpu_ = rusage_user(ru);
  return true;
}

bool ChildProcess::wait_exit(milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!reap(false)) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(milliseconds(2));
  }
  return true;
}

void ChildProcess::kill_group() {
  if (pid_ <= 0) return;
  // The group outlives the shell when the bot left processes behind; while the shell is not
  // reaped its pid (the group id) cannot be reused, so the kill reaches only the bot's processes.
  if (!wait_status_ || !group_members(pid_).empty()) ::kill(-pid_, SIGKILL);
  reap(true);
  unregister_group(pid_);
}

bool ChildProcess::exited_cleanly() {
  return reap(false) && WIFEXITED(*wait_status_) && WEXITSTATUS(*wait_status_) == 0;
}

void ChildProcess::signal_group(int signal) {
  if (pid_ > 0 && !wait_status_) ::kill(-pid_, signal);
}

std::string ChildProcess::exit_description() {
  if (!reap(false)) return "still running";
  const int s = *wait_status_;
  if (WIFEXITED(s) && WEXITSTATUS(s) > 128 && WEXITSTATUS(s) < 128 + NSIG)  // the shell's report
    return "exited with status " + std::to_string(WEXITSTATUS(s)) + ": killed by signal " +
           std::to_string(WEXITSTATUS(s) - 128) + " (" + ::strsignal(WEXITSTATUS(s) - 128) + ")";
  if (WIFEXITED(s)) return "exited with status " + std::to_string(WEXITSTATUS(s));
  if (WIFSIGNALED(s))
    return std::string("killed by signal ") + std::to_string(WTERMSIG(s)) + " (" +
           ::strsignal(WTERMSIG(s)) + ")";
  return "ended";
}

}  // namespace arena
