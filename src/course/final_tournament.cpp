#include "course/final_tournament.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/file_tail.hpp"
#include "course/checker.hpp"
#include "course/file_store.hpp"
#include "course/tar_writer.hpp"
#include "sandbox/cgroup.hpp"
#include "sandbox/child_process.hpp"

namespace arena::course {
namespace fs = std::filesystem;
namespace {

int count_lines_with(const fs::path& file, const std::string& needle) {
  std::ifstream in(file);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.find(needle) != std::string::npos;
  return n;
}

// The run command and the folder of a hand-in's build, from its check's own verdict.json (the
// stored one has the server's paths taken out).
std::pair<std::string, std::string> built_agent(const fs::path& course_dir, std::int64_t id) {
  std::ifstream in(course_dir / "work" / std::to_string(id) / "check" / "verdict.json");
  const auto v = nlohmann::json::parse(in, nullptr, false);
  if (v.is_discarded() || !v.is_object() || v.value("verdict", "") != "accepted") return {};
  return {v.value("run", ""), v.value("root", "")};
}

}  // namespace

FinalTournament::FinalTournament(Store& store, Ladder& ladder, FinalOptions options)
    : store_(store), ladder_(ladder), options_(std::move(options)) {}

FinalTournament::~FinalTournament() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
}

FinalState FinalTournament::state() {
  FinalState s;
  s.state = store_.setting("final_state").value_or("none");
  s.cutoff = store_.setting("final_cutoff").value_or("");
  s.ladder = store_.setting("final_ladder").value_or("");
  s.error = store_.setting("final_error").value_or("");
  s.shards = std::stoi(store_.setting("final_shards").value_or("0"));
  const auto entrants =
      nlohmann::json::parse(store_.setting("final_entrants").value_or("[]"), nullptr, false);
  if (entrants.is_array())
    for (const auto& e : entrants)
      s.entrants.push_back(
          {e.value("login", ""), e.value("name", ""), e.value("submission", std::int64_t{0})});
  const auto n = static_cast<int>(s.entrants.size());
  s.total = n * (n - 1);
  if (s.state != "none") s.played = games_played();
  // Said once the script is written (the plan takes a moment after the start).
  std::error_code ec;
  if (s.state == "running" && s.shards > 0 &&
      fs::exists(event_dir() / "cluster" / "slurm.sbatch", ec))
    s.next = fmt::format("sbatch {}", (event_dir() / "cluster" / "slurm.sbatch").string());
  return s;
}

int FinalTournament::games_played() const {
  int n = count_lines_with(event_dir() / "journal.jsonl", "\"type\":\"game\"");
  std::error_code ec;
  if (fs::is_directory(event_dir() / "shards", ec))
    for (const auto& f : fs::directory_iterator(event_dir() / "shards", ec))
      n += count_lines_with(f.path(), "\"type\":\"game\"");
  return n;
}

FinalState FinalTournament::begin(const FinalRequest& r, const std::string& by) {
  std::lock_guard lock(mutex_);
  if (store_.setting("final_state").value_or("none") == "running")
    throw std::logic_error("the final tournament is running already");
  // A hand-in made before the cut-off whose verdict has not come would be left out silently.
  if (const int waiting = store_.unchecked_before(r.cutoff); waiting > 0)
    throw std::logic_error(fmt::format(
        "{} hand-in(s) made before the cut-off are still being checked: start when they are",
        waiting));
  const std::vector<Submission> entrants = store_.last_accepted_before(r.cutoff);
  if (entrants.size() < 2)
    throw std::invalid_argument(
        fmt::format("{} student(s) had an accepted hand-in by {}: a tournament needs two",
                    entrants.size(), r.cutoff));
  nlohmann::json listed = nlohmann::json::array();
  for (const Submission& s : entrants)
    listed.push_back({{"login", s.login}, {"name", s.name}, {"submission", s.id}});
  if (thread_.joinable()) thread_.join();  // the one before, finished
  std::error_code ec;
  fs::remove_all(dir(), ec);
  fs::create_directories(dir());

  store_.set_setting("final_cutoff", r.cutoff);
  store_.set_setting("final_ladder", r.pause_ladder ? "paused" : "on");
  store_.set_setting("final_error", "");
  store_.set_setting("final_shards", std::to_string(r.shards));
  store_.set_setting("final_move_time", std::to_string(r.move_time_ms));
  store_.set_setting("final_entrants", listed.dump());
  store_.set_setting("final_state", "running");
  if (r.pause_ladder) ladder_.set_paused(true);
  store_.log_event(by, "final-start",
                   fmt::format("cut-off {}, {} entrants{}{}", r.cutoff, entrants.size(),
                               r.pause_ladder ? ", ladder paused" : "",
                               r.shards > 0 ? fmt::format(", {} shards", r.shards) : ""));
  stopping_.store(false);
  thread_ = std::thread([this, r] { run(r.shards, r.move_time_ms); });
  return state();
}

void FinalTournament::resume() {
  std::lock_guard lock(mutex_);
  if (store_.setting("final_state").value_or("none") != "running") return;
  const int shards = std::stoi(store_.setting("final_shards").value_or("0"));
  const int move_time = std::stoi(store_.setting("final_move_time").value_or("0"));
  store_.log_event("server", "final-resume", "the final tournament goes on");
  thread_ = std::thread([this, shards, move_time] { run(shards, move_time); });
}

bool FinalTournament::cancel(const std::string& by) {
  std::lock_guard lock(mutex_);
  if (store_.setting("final_state").value_or("none") != "running") return false;
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
  stopping_.store(false);
  store_.set_setting("final_error", "cancelled by " + by);
  store_.set_setting("final_state", "failed");
  store_.log_event(by, "final-cancel", "");
  return true;
}

void FinalTournament::fail(const std::string& why) {
  store_.set_setting("final_error", why);
  store_.set_setting("final_state", "failed");
  store_.log_event("server", "final-failed", why.substr(0, 300));
}

bool FinalTournament::run_step(const std::string& command, const std::string& what) {
  DetachedChildOptions child;
  child.command = "exec " + command;
  child.working_dir = dir();
  child.output_file = dir() / (what + ".log");
  child.output_cap = 1u << 20;
  child.env = {"ARENA_PARENT_PID=" + std::to_string(::getpid())};
  ChildProcess process(std::move(child));
  while (!process.wait_exit(std::chrono::milliseconds(250)))
    if (stopping_.load()) {
      process.kill_group();
      remove_stale_cgroups();  // its agents' sandboxes, killed with it
      return false;            // still running: taken up at the next start
    }
  const std::string status = process.exit_description();
  if (status == "exited with status 0") return true;
  fail(fmt::format("{} {}:\n{}", what, status, read_tail(dir() / (what + ".log"), 2000)));
  return false;
}

bool FinalTournament::build_entrant(const FinalEntrant& e) {
  const auto s = store_.submission(e.submission);
  if (!s) {
    fail(fmt::format("{}'s hand-in {} is gone", e.login, e.submission));
    return false;
  }
  const fs::path work = options_.course_dir / "work" / std::to_string(s->id);
  fs::remove_all(work);
  fs::create_directories(work);
  const fs::path input = work / checked_file_name(s->file_name);
  fs::copy_file(FileStore(options_.course_dir / "files").path(s->file_hash), input);
  return run_step(fmt::format("{} handin check {} {} --out {} --no-smoke {}",
                              shell_quote(options_.arena_binary.string()),
                              shell_quote(options_.game), shell_quote(input.string()),
                              shell_quote((work / "check").string()), options_.check_args),
                  "build-" + std::to_string(s->id));
}

bool FinalTournament::write_participants() {
  const fs::path file = dir() / "participants.txt";
  if (fs::exists(file)) return true;
  std::string participants;
  for (const FinalEntrant& e : state().entrants) {
    auto agent = built_agent(options_.course_dir, e.submission);
    // A hand-in a worker checked has no build here yet, nor one whose build was removed.
    if (agent.first.empty()) {
      if (!build_entrant(e)) return false;
      agent = built_agent(options_.course_dir, e.submission);
    }
    const auto& [run, root] = agent;
    if (run.empty() || root.empty() || root.find_first_of(" \t\n") != std::string::npos) {
      fail(fmt::format("{}'s hand-in {} does not build on the server", e.login, e.submission));
      return false;
    }
    participants += fmt::format("{}: dir={} command {}\n", e.login, root, run);
  }
  std::ofstream(dir() / "participants.txt.partial") << participants;
  fs::rename(dir() / "participants.txt.partial", file);
  return true;
}

void FinalTournament::run(int shards, int move_time_ms) {
  try {
    const std::string arena = shell_quote(options_.arena_binary.string());
    const std::string event = shell_quote(event_dir().string());
    const int move_time = move_time_ms > 0 ? move_time_ms : options_.move_time_ms;
    if (!write_participants()) return;
    std::error_code ec;
    if (!fs::exists(event_dir() / "journal.jsonl", ec) &&
        !run_step(fmt::format("{} tournament plan {} -f {} -o {} --seed 1{}", arena,
                              shell_quote(options_.game),
                              shell_quote((dir() / "participants.txt").string()), event,
                              move_time > 0 ? fmt::format(" --move-time {}", move_time) : ""),
                  "plan"))
      return;
    if (shards == 0) {
      if (!run_step(fmt::format("{} tournament play {} -q", arena, event), "play")) return;
    } else {
      if (!fs::exists(event_dir() / "cluster" / "slurm.sbatch", ec) &&
          !run_step(fmt::format("{} tournament slurm {} --shards {}", arena, event, shards),
                    "slurm"))
        return;
      // Played on the cluster: done when every game is in the journals.
      const int total = state().total;
      while (games_played() < total)
        for (int i = 0; i < 20; ++i) {
          if (stopping_.load()) return;
          std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
    }
    fs::remove_all(report_dir(), ec);
    if (!run_step(fmt::format("{} tournament report {} --html {}", arena, event,
                              shell_quote(report_dir().string())),
                  "report"))
      return;
    const fs::path partial = download_file().string() + ".partial";
    {
      TarWriter tar(partial, true);
      tar.add_folder(report_dir(), "final-report/");
      tar.close();
    }
    fs::rename(partial, download_file());
    store_.set_setting("final_state", "done");
    store_.log_event("server", "final-done", fmt::format("{} games played", games_played()));
  } catch (const std::exception& e) {
    fail(std::string("the server could not run it: ") + e.what());
  }
}

}  // namespace arena::course
