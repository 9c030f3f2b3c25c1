#include "course/checker.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <sstream>

#include "core/file_tail.hpp"
#include "referee/record.hpp"
#include "sandbox/cgroup.hpp"
#include "sandbox/child_process.hpp"

namespace arena::course {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxKeptLog = 64 * 1024;        // a build log's or agent log's tail
constexpr std::size_t kMaxVerdict = 4 * 1024 * 1024;  // verdict.json, a smoke record

// The check's live stage: its last "name: detail" line, and whether the build has passed.
struct Progress {
  std::string stage;
  bool built = false;
};

Progress read_progress(const fs::path& output) {
  Progress p;
  std::istringstream lines(read_tail(output, 256 * 1024));
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || colon > 8) continue;
    const std::string name = line.substr(0, colon);
    // `arena handin check`'s stages (cli/handin_prepare.cpp): building until the build has
    // passed, then checking (the run command, "game 1", "game 2", the grading).
    static constexpr std::array kBuilding = {"unpack", "recipe", "flags", "build"};
    const bool building = std::find(kBuilding.begin(), kBuilding.end(), name) != kBuilding.end();
    const bool checking = name == "run" || name.starts_with("game") || name == "grade";
    if (!building && !checking) continue;
    p.stage = line.substr(0, 300);
    if (checking) p.built = true;
  }
  return p;
}

std::string valid_utf8_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

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
  for (int i = 0; i < std::max(1, options_.parallel); ++i)
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
    const Progress p = read_progress(output);
    if (p.stage != shown_stage || p.built != shown_checking) {
      shown_stage = p.stage;
      shown_checking = p.built;
      store_.set_progress(s.id, p.built ? "checking" : "building", p.stage);
    }
  }

  // The student sees what the check says: paths on the server become paths in the hand-in.
  const auto without_paths = [&](std::string text) {
    for (const std::string& prefix :
         {(out / "agent").string() + "/", out.string() + "/", dir.string() + "/", dir.string()})
      for (std::size_t at; (at = text.find(prefix)) != std::string::npos;)
        text.erase(at, prefix.size());
    return text;
  };
  const std::string status = process.exit_description();
  nlohmann::json verdict =
      nlohmann::json::parse(read_tail(out / "verdict.json", kMaxVerdict), nullptr, false);
  if (verdict.is_discarded() || !verdict.is_object() || !verdict.contains("verdict")) {
    // The check itself broke (not the hand-in): say so; staff can re-check it.
    const std::string why = "the check did not finish (" + status + ")";
    store_.finish_check(s.id, false, why,
                        valid_utf8_json({{"verdict", "rejected"}, {"reason", why}}),
                        without_paths(read_tail(output, kMaxKeptLog)), std::nullopt, {});
    store_.log_event("checker", "check-failed", fmt::format("hand-in {}: {}", s.id, why));
    return;
  }
  verdict = nlohmann::json::parse(without_paths(valid_utf8_json(verdict)), nullptr, false);
  if (verdict.is_discarded()) verdict = nlohmann::json{{"verdict", "rejected"}, {"reason", status}};
  const bool accepted = verdict.value("verdict", "") == "accepted";
  const std::string reason = verdict.value("reason", "");
  std::optional<std::string> grade;
  if (verdict.contains("grade")) grade = valid_utf8_json(verdict["grade"]);

  std::vector<NewGame> games;
  for (const auto& g : verdict.value("games", nlohmann::json::array())) {
    const fs::path record_file = out / g.value("record", "");
    auto record = nlohmann::json::parse(read_tail(record_file, kMaxVerdict), nullptr, false);
    if (record.is_discarded()) continue;
    NewGame game;
    game.kind = "smoke";
    const bool white = g.value("side", "") == "white";
    const std::string me = s.login + " #" + std::to_string(s.id);
    game.white = white ? me : "random";
    game.black = white ? "random" : me;
    (white ? game.white_submission : game.black_submission) = s.id;
    try {
      game.result = std::string(outcome_key(record_from_json(record).outcome));
    } catch (const std::exception&) {
      continue;  // not a record arena wrote: nothing to show
    }
    game.reason = g.value("reason", "");
    game.plies = g.value("plies", 0);
    // The viewer names the hand-in as the pages do, not by the check's name for it.
    if (record.contains("players") && record["players"].contains(white ? "white" : "black"))
      record["players"][white ? "white" : "black"]["name"] = me;
    game.record = without_paths(valid_utf8_json(record));
    fs::path log = record_file;
    log.replace_extension(std::string(".") + (white ? "white" : "black") + ".log");
    game.logs.emplace_back(s.id, read_tail(log, kMaxKeptLog));
    games.push_back(std::move(game));
  }
  store_.finish_check(s.id, accepted, reason, valid_utf8_json(verdict),
                      without_paths(read_tail(out / "build.log", kMaxKeptLog)), grade, games);
  // The disk is shared: what the verdict keeps is in the database; an accepted hand-in keeps its
  // built agent (for the games it will play), a rejected one nothing.
  std::error_code ec;
  fs::remove(input, ec);
  if (!accepted) fs::remove_all(dir, ec);
}

}  // namespace arena::course
