// `arena handin batch GAME DIR --out OUT`: every hand-in of a cohort checked (or graded) by a
// child arena, several at once within the sandbox's core rule, then a cohort report and a
// participants file for `arena tournament`. OUT/batch.json remembers each hand-in's content hash
// and verdict, so a rerun redoes only what changed. See docs/handin.md, "A whole cohort".
#include "cli/handin_batch.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "cli/commands.hpp"
#include "cli/handin_batch_report.hpp"
#include "core/text.hpp"
#include "handin/content_hash.hpp"
#include "referee/record.hpp"
#include "sandbox/child_process.hpp"
#include "tournament/match_runner.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// One smoke game at a time per two cores when agents get cores of their own (two agents, one
// core each), as `arena tournament` shares cores out; one per core without that protection.
int default_jobs(const BatchOptions& o) {
  const int cores = std::max<int>(1, static_cast<int>(usable_cpus().size()));
  try {
    const SandboxPlan plan = plan_sandbox(o.sandbox, tournament::agent_channel(game_named(o.game)));
    if (!plan.uses(Protection::Cpu)) return cores;
  } catch (const std::exception&) {
    // A required sandbox this machine lacks: each check will say so itself.
  }
  return std::max(1, cores / 2);
}

struct Previous {
  nlohmann::json options;
  std::map<std::string, StudentResult> students;
};

Previous load_previous(const fs::path& file) {
  Previous p;
  std::ifstream in(file, std::ios::binary);
  if (!in) return p;
  const auto j = nlohmann::json::parse(in, nullptr, false);
  try {
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    p.options = j.at("options");
    for (const auto& s : j.at("students")) {
      StudentResult r = StudentResult::from_json(s);
      p.students[r.name] = std::move(r);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "warning: {} is unreadable ({}): every hand-in is checked again\n",
               file.string(), e.what());
    return {};
  }
  return p;
}

class Batch {
 public:
  Batch(const BatchOptions& o, fs::path out) : o_(o), out_(std::move(out)) {}

  int run() {
    const Listing listing = list_handins(o_.dir, out_);
    const Previous previous = load_previous(out_ / "batch.json");
    const bool same_options = previous.options == o_.verdict_options();
    for (const auto& [file, why] : listing.skipped)
      fmt::print(stderr, "skipped: {} ({})\n", file, why);
    remove_departed(listing);

    for (const HandIn& h : listing.handins) {
      StudentResult r;
      r.name = h.name;
      r.file = h.file;
      if (!h.problem.empty()) {
        r.verdict = "error";
        r.reason = h.problem;
      } else {
        try {
          r.hash = handin::content_hash(h.path);
        } catch (const std::exception& e) {
          r.verdict = "error";
          r.reason = fmt::format("cannot read the hand-in: {}", e.what());
        }
      }
      const auto before = previous.students.find(h.name);
      if (before != previous.students.end()) r.checks = before->second.checks;
      if (r.verdict.empty()) {
        if (same_options && before != previous.students.end() && before->second.hash == r.hash &&
            before->second.verdict != "error" && fs::exists(out_ / "students" / h.name)) {
          r = before->second;
          r.file = h.file;
        } else {
          todo_.push_back(results_.size());
          handins_.push_back(h);
        }
      }
      results_.push_back(std::move(r));
    }

    const int jobs = std::max(
        1, std::min<int>(o_.jobs > 0 ? o_.jobs : default_jobs(o_), static_cast<int>(todo_.size())));
    fmt::print(stderr, "{} hand-ins in {}: {} to {}, {} unchanged{}{}\n", results_.size(),
               o_.dir.string(), todo_.size(), o_.grade ? "grade" : "check",
               results_.size() - todo_.size() - problems(),
               problems() ? fmt::format(", {} not checked", problems()) : "",
               todo_.empty() ? "" : fmt::format("; {} at once", jobs));
    save();
    const auto start = Clock::now();
    std::vector<std::thread> workers;
    for (int i = 0; i < jobs && !todo_.empty(); ++i) workers.emplace_back([this] { work(); });
    for (auto& t : workers) t.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    save();

    BatchReportInput report{o_.game, o_.dir, out_, o_.grade, results_, listing.skipped};
    write_batch_reports(report);
    fmt::print("{}\n", summary_line(seconds));
    fmt::print(
        "Reports: {0}/report.html, report.csv, report.json\n"
        "Tournament: arena tournament {1} -f {0}/participants.txt\n",
        out_.string(), o_.game);
    return 0;
  }

 private:
  const BatchOptions& o_;
  const fs::path out_;
  std::vector<StudentResult> results_;  // one per hand-in, sorted by name
  std::vector<std::size_t> todo_;       // indices into results_ to check
  std::vector<HandIn> handins_;         // the same order as todo_
  std::mutex mutex_;
  std::size_t next_ = 0, done_ = 0;

  std::size_t problems() const {
    return static_cast<std::size_t>(std::count_if(
        results_.begin(), results_.end(),
        [](const StudentResult& r) { return r.verdict == "error" && r.hash.empty(); }));
  }

  // The folders of students no longer in DIR: gone from the report, gone from OUT.
  void remove_departed(const Listing& listing) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out_ / "students", ec)) {
      const std::string name = e.path().filename().string();
      const bool present =
          std::any_of(listing.handins.begin(), listing.handins.end(),
                      [&](const HandIn& h) { return h.name == name && h.problem.empty(); });
      if (!present) remove_student_folder(e.path());
    }
  }

  void work() {
    while (true) {
      std::size_t k = 0;
      {
        std::lock_guard lock(mutex_);
        if (next_ >= todo_.size()) return;
        k = next_++;
      }
      const HandIn& h = handins_[k];
      StudentResult r;
      try {
        r = run_child_check(o_, h, out_ / "students" / h.name);
      } catch (const std::exception& e) {
        r.name = h.name;
        r.file = h.file;
        r.verdict = "error";
        r.reason = fmt::format("the check could not run: {}", e.what());
      }
      std::lock_guard lock(mutex_);
      StudentResult& slot = results_[todo_[k]];
      r.hash = slot.hash;
      r.checks = slot.checks + 1;
      r.fresh = true;
      slot = std::move(r);
      ++done_;
      fmt::print(stderr, "[{}/{}] {} {} ({:.1f} s){}\n", done_, todo_.size(), slot.name,
                 slot.verdict, slot.seconds,
                 slot.verdict == "accepted" ? "" : ": " + printable(slot.reason, 100));
      save();  // a batch stopped halfway keeps what it checked
    }
  }

  // OUT/batch.json, under the mutex (or before the workers start).
  void save() {
    nlohmann::json students = nlohmann::json::array();
    for (const auto& r : results_)
      if (!r.hash.empty() && !r.verdict.empty()) students.push_back(r.to_json());
    const nlohmann::json j = {
        {"options", o_.verdict_options()}, {"dir", o_.dir.string()}, {"students", students}};
    write_file_atomically(out_ / "batch.json",
                          j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                          false);
  }

  std::string summary_line(double seconds) const {
    std::map<std::string, int> count;
    for (const auto& r : results_) ++count[r.verdict];
    std::string s =
        fmt::format("{} hand-ins: {} accepted, {} rejected, {} error(s)", results_.size(),
                    count["accepted"], count["rejected"], count["error"]);
    if (!todo_.empty())
      s += fmt::format("; {} {} in {:.1f} s ({:.1f} s each)", todo_.size(),
                       o_.grade ? "graded" : "checked", seconds,
                       seconds / static_cast<double>(todo_.size()));
    const std::size_t kept = results_.size() - todo_.size() - problems();
    if (kept > 0) s += fmt::format("; {} unchanged", kept);
    return s;
  }
};

// Ctrl-C or a TERM: the checks running are stopped (each ends its build and agents), what is
// finished is already in batch.json.
void stop_on_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // inherited by the workers
  std::thread([set] {
    int signo = 0;
    if (sigwait(&set, &signo) != 0) return;
    kill_all_child_groups(std::chrono::seconds(3));
    const std::string msg = fmt::format(
        "\narena handin batch stopped by signal {}; the finished checks are kept: run the same "
        "command again to go on\n",
        signo);
    (void)!::write(STDERR_FILENO, msg.data(), msg.size());
    ::_exit(128 + signo);
  }).detach();
}

int batch(const BatchOptions& o) {
  game_named(o.game);
  std::error_code ec;
  if (!fs::is_directory(o.dir, ec)) {
    fmt::print(stderr, "error: {} is not a folder\n", o.dir.string());
    return 2;
  }
  const fs::path out = fs::absolute(o.out).lexically_normal();
  fs::create_directories(out / "students");
  stop_on_signals();
  return Batch(o, out).run();
}

}  // namespace

void add_handin_batch(CLI::App& handin, int& exit_code) {
  auto* cmd = handin.add_subcommand(
      "batch",
      "Check every hand-in of a cohort (one archive or folder per student in DIR, the student "
      "named by the file), several at once; writes a report and a participants file for "
      "`arena tournament`. A rerun checks only the hand-ins that changed. Exit 0 when the "
      "batch ran, whatever the verdicts");
  auto o = std::make_shared<BatchOptions>();
  add_game_argument(*cmd, o->game);
  cmd->add_option("dir", o->dir, "The cohort's folder: alice.zip, bob.tar.gz, carol/, ...")
      ->required();
  cmd->add_option("--out,-o", o->out,
                  "The batch's folder: report.html, report.csv, report.json, participants.txt, "
                  "batch.json and students/NAME/ (each student's check)")
      ->required();
  cmd->add_option("--jobs,-j", o->jobs,
                  "Checks at once (default: one per two cores when agents get cores of their "
                  "own, as `arena tournament` shares them; else one per core)")
      ->check(CLI::Range(1, 256));
  cmd->add_flag("--grade", o->grade, "Grade each hand-in (`arena handin grade`) instead of check");
  cmd->add_option("--student-timeout", o->student_timeout_s,
                  "Seconds one student's check may take in all before it is stopped (an error)")
      ->capture_default_str()
      ->check(CLI::Range(10, 7 * 86400));
  cmd->add_option("--move-time", o->move_time_ms,
                  "Passed to each check: milliseconds per move in the smoke games")
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--smoke-plies", o->smoke_plies,
                  "Passed to each check: plies of each smoke game (0: whole games)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100'000));
  cmd->add_option("--levels", o->levels,
                  "With --grade: the engine levels each hand-in plays (default: grade's, 1-5)");
  cmd->add_option("--sandbox", o->sandbox, "Passed to each check: auto, required or off")
      ->transform(one_of<SandboxMode>({{"auto", SandboxMode::Auto},
                                       {"required", SandboxMode::Required},
                                       {"off", SandboxMode::Off}}))
      ->default_str("auto");
  cmd->add_option("--build-timeout", o->build_timeout_s, "Passed to each check")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400));
  cmd->add_option("--build-cpu", o->build_cpu_s, "Passed to each check (seconds)")
      ->capture_default_str()
      ->check(CLI::Range(1, 864000));
  cmd->add_option("--build-memory", o->build_memory_mb, "Passed to each check (MB)")
      ->capture_default_str()
      ->check(CLI::Range(16.0, 1048576.0));
  cmd->add_option("--build-processes", o->build_processes, "Passed to each check")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--log-limit", o->log_limit_mb, "Passed to each check (MB)")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 65536.0));
  cmd->add_option("--forbid-flags", o->forbid_flags, "Passed to each check, e.g. '-O*'");
  cmd->callback([o, &exit_code] {
    try {
      exit_code = batch(*o);
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 2;
    }
  });
}

}  // namespace arena::cli
