// What every command that plays an event needs: the arena binary (it runs the built-in agents)
// and a clean stop on a signal.
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include "cli/commands.hpp"
#include "sandbox/cgroup.hpp"
#include "sandbox/child_process.hpp"
#include "tournament/event_runner.hpp"

namespace arena::cli {

std::filesystem::path own_binary() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw std::runtime_error("cannot find the arena binary (/proc/self/exe): " + ec.message());
  return p;
}

void handle_stop_signals(std::string continue_command, std::function<void(int)> on_stop) {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // inherited by the threads started later
  std::thread([set, continue_command = std::move(continue_command), on_stop = std::move(on_stop)] {
    int signo = 0;
    if (sigwait(&set, &signo) != 0) return;
    tournament::request_stop();  // before the kill: the games it ends are not results
    // SIGTERM first: a referee running as a child ends its own bots.
    kill_all_child_groups(std::chrono::milliseconds(300));
    remove_own_cgroups();
    if (on_stop) on_stop(signo);
    const std::string msg = fmt::format(
        "\narena tournament stopped by signal {}; finished games are kept. Continue with: {}\n",
        signo, continue_command);
    (void)!::write(STDERR_FILENO, msg.data(), msg.size());
    ::_exit(128 + signo);
  }).detach();
}

}  // namespace arena::cli
