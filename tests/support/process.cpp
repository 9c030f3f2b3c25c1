#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace arena::testing {
namespace {

using Clock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::chrono::milliseconds left(Clock::time_point deadline) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return std::max(ms, std::chrono::milliseconds(0));
}

}  // namespace

Process::Process(const std::vector<std::string>& argv) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int rc = ::posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  out_fd_ = out_pipe[0];
  err_fd_ = err_pipe[0];
  if (rc != 0) {
    close_fd(out_fd_);
    close_fd(err_fd_);
    pid_ = -1;
    throw std::runtime_error("cannot start " + argv.at(0) + ": " + std::strerror(rc));
  }
}

Process::~Process() {
  if (pid_ > 0 && !status_) {
    ::kill(pid_, SIGKILL);
    reap(true);
  }
  close_fd(out_fd_);
  close_fd(err_fd_);
}

bool Process::pump(std::chrono::milliseconds timeout) {
  pollfd fds[2];
  int n = 0;
  if (out_fd_ >= 0) fds[n++] = {out_fd_, POLLIN, 0};
  if (err_fd_ >= 0) fds[n++] = {err_fd_, POLLIN, 0};
  if (n == 0) return false;
  const int ready = ::poll(fds, static_cast<nfds_t>(n), static_cast<int>(timeout.count()));
  if (ready <= 0) return true;
  for (int i = 0; i < n; ++i) {
    if (fds[i].revents == 0) continue;
    char buf[4096];
    const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    const bool is_out = fds[i].fd == out_fd_;
    if (got <= 0) {
      close_fd(is_out ? out_fd_ : err_fd_);
      continue;
    }
    (is_out ? out_ : err_).append(buf, static_cast<std::size_t>(got));
  }
  return true;
}

std::optional<std::string> Process::read_stdout_line(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const auto nl = out_.find('\n', out_consumed_);
    if (nl != std::string::npos) {
      std::string line = out_.substr(out_consumed_, nl - out_consumed_);
      out_consumed_ = nl + 1;
      return line;
    }
    if (out_fd_ < 0 || Clock::now() >= deadline) return std::nullopt;
    pump(left(deadline));
  }
}

bool Process::reap(bool block) {
  if (status_) return true;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  if (r != pid_) return false;
  status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return true;
}

std::optional<int> Process::wait(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  // Drain the pipes while waiting, so a chatty child never blocks on a full pipe.
  while (out_fd_ >= 0 || err_fd_ >= 0) {
    if (Clock::now() >= deadline) return reap(false) ? status_ : std::nullopt;
    pump(std::min(left(deadline), std::chrono::milliseconds(50)));
  }
  while (!reap(false)) {
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return status_;
}

void Process::kill(int signal) {
  if (pid_ > 0 && !status_) ::kill(pid_, signal);
}

}  // namespace arena::testing
