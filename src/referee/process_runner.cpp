#include "referee/process_runner.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace arena {
namespace {

// Process groups still alive, for kill_all_running_process_groups().
std::mutex groups_mutex;
std::set<pid_t>& live_groups() {
  static std::set<pid_t> groups;
  return groups;
}

ExitStatus from_wait_status(int status) {
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WIFEXITED(status) ? WEXITSTATUS(status) : 0};
}

// posix_spawn actions: a clean child (own group, default signals, nothing inherited but 0-2).
class SpawnSetup {
 public:
  explicit SpawnSetup(const ProcessOptions& o) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attr_);
    posix_spawn_file_actions_addopen(&actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const std::string out = o.output_file.empty() ? "/dev/null" : o.output_file.string();
    posix_spawn_file_actions_addopen(&actions_, STDOUT_FILENO, out.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions_, STDOUT_FILENO, STDERR_FILENO);
    // Sockets of other games in this process must not leak into the agent.
    posix_spawn_file_actions_addclosefrom_np(&actions_, STDERR_FILENO + 1);
    if (!o.working_dir.empty())
      posix_spawn_file_actions_addchdir_np(&actions_, o.working_dir.c_str());
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT}) sigaddset(&defaults, s);
    posix_spawnattr_setsigmask(&attr_, &none);
    posix_spawnattr_setsigdefault(&attr_, &defaults);
    posix_spawnattr_setpgroup(&attr_, 0);
    posix_spawnattr_setflags(
        &attr_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  const posix_spawn_file_actions_t* actions() const { return &actions_; }
  const posix_spawnattr_t* attr() const { return &attr_; }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attr_;
};

}  // namespace

std::string ExitStatus::describe() const {
  if (!signaled) return fmt::format("exited with status {}", code);
  const char* name = sigabbrev_np(code);
  return name ? fmt::format("was killed by signal {} (SIG{})", code, name)
              : fmt::format("was killed by signal {}", code);
}

RunningProcess::RunningProcess(const ProcessOptions& options) {
  if (options.argv.empty() || options.argv[0].empty())
    throw std::runtime_error("cannot start a process: empty command");
  std::vector<char*> args;
  for (const auto& a : options.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const SpawnSetup setup(options);
  // The group is registered before the child exists, so a signal never misses it.
  std::lock_guard lock(groups_mutex);
  const int rc =
      ::posix_spawnp(&pid_, args[0], setup.actions(), setup.attr(), args.data(), environ);
  if (rc != 0) {
    pid_ = -1;
    throw std::runtime_error(
        fmt::format("cannot start {}: {}", options.argv[0], std::strerror(rc)));
  }
  live_groups().insert(pid_);
}

RunningProcess::~RunningProcess() {
  if (pid_ > 0) kill_group();
}

std::optional<ExitStatus> RunningProcess::poll() {
  if (status_ || pid_ <= 0) return status_;
  // WNOWAIT: the ended process stays a zombie until kill_group() reaps it, so its pid (and the
  // group id) cannot be reused by another process before the group is killed.
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
      info.si_pid == pid_) {
    const bool exited = info.si_code == CLD_EXITED;
    status_ = ExitStatus{!exited, info.si_status};
    ended_by_itself_ = true;
  }
  return status_;
}

std::optional<ExitStatus> RunningProcess::wait_for(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!poll() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return status_;
}

ExitStatus RunningProcess::kill_group() {
  if (reaped_) return *status_;
  // The group may outlive its leader (a shell's children): kill it in any case.
  {
    std::lock_guard lock(groups_mutex);
    ::kill(-pid_, SIGKILL);
    live_groups().erase(pid_);
  }
  int status = 0;
  pid_t r;
  do r = ::waitpid(pid_, &status, 0);
  while (r < 0 && errno == EINTR);
  reaped_ = true;
  if (!status_) status_ = r == pid_ ? from_wait_status(status) : ExitStatus{true, SIGKILL};
  return *status_;
}

void kill_all_running_process_groups() {
  std::lock_guard lock(groups_mutex);
  for (pid_t g : live_groups()) ::kill(-g, SIGKILL);
  live_groups().clear();
}

}  // namespace arena
