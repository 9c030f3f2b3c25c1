#include "course/checker.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "core/file_tail.hpp"
#include "course/check_report.hpp"
#include "sandbox/cgroup.hpp"
#include "sandbox/child_process.hpp"

namespace arena::course {
namespace fs = std::filesystem;
std::string checked_file_name(const std::string& uploaded_name) {
  std::string lower;
  for (char c : uploaded_name)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* suffix : {".tar.gz", ".tar.xz", ".tgz", ".tar", ".zip", ".jar"})
    if (lower.ends_with(suffix)) return std::string("handin") + suffix;
  return "handin";
}

Checker::Checker(Store& store, FileStore& files, CheckerOptions options)
    : store_(store), files_(files), options_(std::move(options)) {}

Checker::~Checker() {
  stop();
}

void Checker::start() {
  for (int i = 0; i < (options_.on_workers ? 1 : std::max(1, options_.parallel)); ++i)
    threads_.emplace_back([this] { loop(); });
}

void Checker::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_.notify_all();
}

void Checker::stop() {
  stopping_.store(true);
  wake();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void Checker::loop() {
  while (!stopping_.load()) {
    if (options_.on_workers) {
      // Workers check: hand-ins become jobs, and their verdicts come with the jobs' results.
      try {
        if (store_.queue_check_jobs() > 0 && options_.on_verdict) options_.on_verdict();
      } catch (const std::exception& e) {
        fmt::print(stderr, "course: queueing checks failed: {}\n", e.what());
      }
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::seconds(2), [this] { return woken_ || stopping_.load(); });
      woken_ = false;
      continue;
    }
    std::optional<Submission> next;
    try {
      next = store_.take_queued();
      if (next) {
        check(*next);
        if (options_.on_verdict) options_.on_verdict();
      }
    } catch (const std::exception& e) {
      // The disk or the database failed us, not the hand-in: it is rejected saying so (staff
      // can check it again), rather than left "building" and counted as waiting.
      fmt::print(stderr, "course: checking hand-in {} failed: {}\n", next ? next->id : 0, e.what());
      try {
        if (next)
          store_.fail_check(next->id,
                            "the server could not check it (an internal error): "
                            "ask the staff to check it again");
      } catch (const std::exception&) {
        // The database itself is failing: the next start puts the hand-in back in the queue.
      }
    }
    if (next) continue;
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, std::chrono::seconds(2), [this] { return woken_ || stopping_.load(); });
    woken_ = false;
  }
}

void Checker::check(const Submission& s) {
  const fs::path dir = options_.work_dir / std::to_string(s.id);
  // A check a stopped server left half done starts again from nothing.
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path input = dir / checked_file_name(s.file_name);
  fs::copy_file(files_.path(s.file_hash), input);
  const fs::path out = dir / "check";
  const fs::path output = dir / "output.txt";
  const std::string command = fmt::format(
      "exec {} handin {} {} {} --out {} {}", shell_quote(options_.arena_binary.string()),
      options_.grade ? "grade" : "check", shell_quote(options_.game), shell_quote(input.string()),
      shell_quote(out.string()), options_.extra_args);

  DetachedChildOptions child;
  child.command = command;
  child.working_dir = dir;
  child.output_file = output;
  // Written as it comes (the stages are followed live); the check bounds what it prints itself.
  child.output_cap = 0;
  child.env = {"ARENA_PARENT_PID=" + std::to_string(::getpid())};
  ChildProcess process(std::move(child));
  std::string shown_stage;
  bool shown_checking = false;
  while (!process.wait_exit(std::chrono::milliseconds(250))) {
    if (stopping_.load()) {
      process.kill_group();
      // Killed, the check could not remove its sandbox's cgroups: they go now.
      remove_stale_cgroups();
      return;  // still `building` or `checking`: requeued at the next start
    }
    const CheckProgress p = check_progress(read_tail(output, 256 * 1024));
    if (p.stage != shown_stage || p.built != shown_checking) {
      shown_stage = p.stage;
      shown_checking = p.built;
      store_.set_progress(s.id, p.built ? "checking" : "building", p.stage);
    }
  }

  // The student sees what the check says: paths on the server become paths in the hand-in.
  const auto without_paths = [&](std::string text) {
    return without_prefixes(std::move(text), check_folder_prefixes(dir));
  };
  const CheckResult o =
      judge_check(s, read_check_folder(out, output, process.exit_description()), without_paths);
  store_.finish_check(s.id, o);
  if (o.broken)
    store_.log_event("checker", "check-failed", fmt::format("hand-in {}: {}", s.id, o.reason));
  // The disk is shared: what the verdict keeps is in the database; an accepted hand-in keeps its
  // built agent (for the games it will play), a rejected one nothing.
  std::error_code ec;
  fs::remove(input, ec);
  if (!o.accepted) fs::remove_all(dir, ec);
}

}  // namespace arena::course
