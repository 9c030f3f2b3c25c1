#include "course/local_worker.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>

#include "sandbox/cgroup.hpp"
#include "sandbox/child_process.hpp"

namespace arena::course {

LocalWorker::LocalWorker(LocalWorkerOptions options) : options_(std::move(options)) {
  thread_ = std::thread([this] { loop(); });
}

LocalWorker::~LocalWorker() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
}

void LocalWorker::loop() {
  while (!stopping_.load()) {
    DetachedChildOptions child;
    child.command = fmt::format(
        "exec {} course worker {} --cache {} {} {}", shell_quote(options_.arena_binary.string()),
        shell_quote(options_.url), shell_quote(options_.cache_dir.string()),
        options_.games > 0 ? fmt::format("-j {}", options_.games) : "", options_.extra_args);
    child.output_file = options_.log_file;
    child.output_cap = 4u << 20;
    child.env = {"ARENA_TOKEN=" + options_.token, "ARENA_PARENT_PID=" + std::to_string(::getpid())};
    try {
      ChildProcess process(std::move(child));
      while (!process.wait_exit(std::chrono::milliseconds(250)))
        if (stopping_.load()) {
          process.kill_group();
          // Killed mid-game, its sandboxes could not remove their cgroups.
          remove_stale_cgroups();
          return;
        }
      fmt::print(stderr, "course: the server's own worker stopped ({}); starting it again\n",
                 process.exit_description());
    } catch (const std::exception& e) {
      fmt::print(stderr, "course: the server's own worker cannot start: {}\n", e.what());
    }
    for (int i = 0; i < 20 && !stopping_.load(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

}  // namespace arena::course
