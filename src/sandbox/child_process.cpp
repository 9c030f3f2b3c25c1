#include "sandbox/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
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

#include "core/process_cpu.hpp"
#include "core/time_left.hpp"
#include "sandbox/process_group.hpp"

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

// Holds the stop signals back in this thread from before a child is started until its group is
// registered: a signal in between would end arena without killing the new child.
class StopSignalsHeld {
 public:
  StopSignalsHeld() {
    sigset_t stops;
    sigemptyset(&stops);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&stops, sig);
    ::pthread_sigmask(SIG_BLOCK, &stops, &old_);
  }
  ~StopSignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  StopSignalsHeld(const StopSignalsHeld&) = delete;
  StopSignalsHeld& operator=(const StopSignalsHeld&) = delete;

 private:
  sigset_t old_;
};

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
    : ChildProcess(PipedChildOptions{command, max_line_bytes, err}) {}

ChildProcess::ChildProcess(PipedChildOptions o)
    : lines_(o.max_line_bytes), jail_(std::move(o.jail)) {
  ignore_sigpipe_once();
  int in_pipe[2], out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    throw std::runtime_error("pipe failed");
  }
  auto close_all = [&] {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) ::close(fd);
  };
  try {
    if (o.err == BotStderr::File) log_ = std::make_unique<CappedLog>(o.stderr_file, o.stderr_cap);
    if (jail_) {
      // Discarded output goes to /dev/null inside the sandbox too.
      const int null_fd =
          o.err == BotStderr::Discard ? ::open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
      const int err_fd = log_ ? log_->write_fd() : null_fd;
      try {
        spawn_jailed(o.command, {}, {}, in_pipe[0], out_pipe[1], err_fd);
      } catch (...) {
        if (null_fd >= 0) ::close(null_fd);
        throw;
      }
      if (null_fd >= 0) ::close(null_fd);
    } else {
      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
      posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
      if (o.err == BotStderr::Discard)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
      if (log_) posix_spawn_file_actions_adddup2(&actions, log_->write_fd(), STDERR_FILENO);
      try {
        spawn(o.command.c_str(), &actions, {});
      } catch (...) {
        posix_spawn_file_actions_destroy(&actions);
        throw;
      }
      posix_spawn_file_actions_destroy(&actions);
    }
  } catch (...) {
    close_all();
    throw;
  }
  if (log_) log_->close_write_end();
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  in_fd_ = in_pipe[1];
  out_fd_ = out_pipe[0];
  ::fcntl(in_fd_, F_SETFL, ::fcntl(in_fd_, F_GETFL) | O_NONBLOCK);
  ::fcntl(out_fd_, F_SETFL, ::fcntl(out_fd_, F_GETFL) | O_NONBLOCK);
}

ChildProcess::ChildProcess(DetachedChildOptions o) : lines_(1), jail_(std::move(o.jail)) {
  out_closed_ = true;
  const std::string out = o.output_file.empty() ? "/dev/null" : o.output_file.string();
  if (o.output_cap > 0 && !o.output_file.empty())
    log_ = std::make_unique<CappedLog>(o.output_file, o.output_cap);
  if (jail_) {
    // Opened here: a relative path is ours, and the sandbox may not see the file.
    int out_fd = log_ ? log_->write_fd()
                      : ::open(out.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const int in_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    try {
      if (out_fd < 0 || in_fd < 0) throw std::runtime_error("cannot open " + out);
      spawn_jailed(o.command, o.env, o.working_dir, in_fd, out_fd, out_fd);
    } catch (...) {
      if (in_fd >= 0) ::close(in_fd);
      if (!log_ && out_fd >= 0) ::close(out_fd);
      throw;
    }
    ::close(in_fd);
    if (!log_) ::close(out_fd);
    if (log_) log_->close_write_end();
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // Opened before the chdir below: a relative path is ours.
  if (log_)
    posix_spawn_file_actions_adddup2(&actions, log_->write_fd(), STDOUT_FILENO);
  else
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
  if (log_) log_->close_write_end();
}

// In the forked child: only async-signal-safe calls until exec. Says why on fd 2 and exits 127
// when something fails, which the referee reports as the agent's crash.
[[noreturn]] static void fail_in_child(const char* what) {
  const char* why = std::strerror(errno);
  const char prefix[] = "arena sandbox: ";
  (void)!::write(STDERR_FILENO, prefix, sizeof prefix - 1);
  (void)!::write(STDERR_FILENO, what, std::strlen(what));
  (void)!::write(STDERR_FILENO, ": ", 2);
  (void)!::write(STDERR_FILENO, why, std::strlen(why));
  (void)!::write(STDERR_FILENO, "\n", 1);
  ::_exit(127);
}

void ChildProcess::spawn_jailed(const std::string& command, const std::vector<std::string>& env,
                                const std::filesystem::path& working_dir, int in, int out,
                                int err) {
  const AgentJail::Exec exec = jail_->exec(command, env);
  std::vector<char*> argv, envp;
  for (const auto& a : exec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : exec.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::vector<int> joins;
  for (const auto& f : jail_->join_files()) {
    const int fd = ::open(f.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
      for (int j : joins) ::close(j);
      throw std::runtime_error("cannot open " + f.string() + ": " + std::strerror(errno));
    }
    joins.push_back(fd);
  }
  cpu_set_t cores;
  CPU_ZERO(&cores);
  for (int c : jail_->cpus())
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &cores);
  const bool pin = !jail_->cpus().empty();
  const std::string dir =
      working_dir.empty() ? jail_->working_dir().string() : working_dir.string();
  // The child's fds 0-2 are dup'ed from copies above 2, so that no target is overwritten first.
  int fds[3] = {in, out, err};
  for (int& fd : fds)
    if (fd >= 0) fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  {
    std::lock_guard lock(spawn_mutex());
    const StopSignalsHeld held;
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      // Dies with arena from the first instruction (bubblewrap's --die-with-parent comes only
      // once bwrap runs: an arena killed in between would leave the agent behind).
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      for (int fd : joins)
        if (::write(fd, "0", 1) != 1) fail_in_child("cannot join the agent's cgroup");
      if (pin) ::sched_setaffinity(0, sizeof cores, &cores);
      struct sigaction dfl {};
      dfl.sa_handler = SIG_DFL;
      for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &dfl, nullptr);
      sigset_t none;
      sigemptyset(&none);
      ::sigprocmask(SIG_SETMASK, &none, nullptr);
      for (int target = 0; target < 3; ++target)
        if (fds[target] >= 0 && ::dup2(fds[target], target) < 0) fail_in_child("dup2");
      if (!dir.empty() && ::chdir(dir.c_str()) != 0)
        fail_in_child("cannot enter the agent's folder");
      ::close_range(3, ~0U, 0);
      ::execve(argv[0], argv.data(), envp.data());
      fail_in_child("cannot start the sandbox");
    }
    if (pid_ > 0) register_group(pid_);
  }
  const int fork_error = errno;
  for (int fd : joins) ::close(fd);
  for (int fd : fds)
    if (fd >= 0) ::close(fd);
  if (pid_ < 0) {
    pid_ = -1;
    throw std::runtime_error(std::string("cannot start the agent: fork: ") +
                             std::strerror(fork_error));
  }
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
  const StopSignalsHeld held;
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
    if (jail_ && jail_->breach()) return finish(ReadStatus::LimitBroken);
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
    const milliseconds left = time_left(deadline);
    if (left.count() == 0) return finish(ReadStatus::WallTimeout);
    pollfd p{out_fd_, POLLIN, 0};
    const milliseconds wait = limits.cpu || jail_ ? std::min(left, kCpuCheckInterval) : left;
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
    const milliseconds left = time_left(deadline);
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
  if (jail_)
    if (const auto cpu = jail_->user_cpu()) return *cpu;
  reap(false);
  return reaped_cpu_ + group_user_cpu(pid_);
}

std::chrono::microseconds ChildProcess::total_cpu_time() {
  if (jail_)
    if (const auto cpu = jail_->cpu()) return *cpu;
  return cpu_time();
}

bool ChildProcess::reap(bool block) {
  if (wait_status_) return true;
  if (pid_ <= 0) return false;
  int status = 0;
  rusage ru{};
  const pid_t r = ::wait4(pid_, &status, block ? 0 : WNOHANG, &ru);
  if (r != pid_) return false;
  wait_status_ = status;
  reaped_cpu_ = user_time(ru);
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
  if (jail_) jail_->kill_all();  // also what left the group (setsid, daemons)
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
