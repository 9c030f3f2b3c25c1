#include "cli/course_worker_job.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

#include "cli/commands.hpp"
#include "core/file_tail.hpp"
#include "course/check_report.hpp"
#include "course/credentials.hpp"
#include "referee/record.hpp"
#include "sandbox/child_process.hpp"
#include "tournament/event.hpp"
#include "tournament/match_runner.hpp"
#include "tournament/participants.hpp"
#include "tournament/single_game.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;
using tournament::AgentKind;
using tournament::Participant;

constexpr std::size_t kMaxHandin = 1024u << 20;

// Holds an exclusive flock on a file while it lives: one build of a hand-in at a time, also
// between workers sharing a cache.
class FileLock {
 public:
  explicit FileLock(const fs::path& file) : fd_(::open(file.c_str(), O_RDWR | O_CREAT, 0600)) {
    if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0)
      throw std::runtime_error("cannot lock " + file.string());
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

// A hand-in's file from the server, whole (its SHA-256 is its name), into `file`.
std::optional<std::string> fetch_handin(CourseClient& client, const std::string& hash,
                                        const fs::path& file) {
  const std::string bytes = client.get_bytes(fmt::format("/api/worker/files/{}", hash), kMaxHandin);
  // The hash is the cache's key: a copy that does not match it is never kept.
  if (course::sha256_hex(bytes) != hash)
    return "the hand-in's file did not arrive whole (its SHA-256 differs)";
  write_file_atomically(file, bytes);
  return std::nullopt;
}

// The cache folder of the hand-in a lease names, or why its names are not as they must be.
std::optional<fs::path> handin_dir(const nlohmann::json& side, const WorkerSettings& settings,
                                   std::string& why_not) {
  static const std::regex hash_form("[0-9a-f]{64}"), name_form(R"(handin(\.[a-z.]+)?)");
  if (!side.is_object() || !std::regex_match(side.value("hash", ""), hash_form) ||
      !std::regex_match(side.value("file_name", "handin"), name_form)) {
    why_not = "the server named the hand-in strangely";
    return std::nullopt;
  }
  return settings.cache / "handins" / side.value("hash", "");
}

// A job's own folder, empty, also when workers share a cache.
fs::path job_dir(const WorkerSettings& settings, const std::string& kind, std::int64_t job) {
  const fs::path dir =
      settings.cache / kind /
      fmt::format("{}-{}-{}", job, ::getpid(),
                  std::hash<std::thread::id>{}(std::this_thread::get_id()) % 1000000);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

struct Built {
  bool ok = false;
  std::string why_not, run, root;
};

// The hand-in with this hash, built in the cache (once), or why it does not build here.
Built build_handin(CourseClient& client, const std::string& game, const nlohmann::json& side,
                   const WorkerSettings& settings) {
  std::string why_not;
  const auto found = handin_dir(side, settings, why_not);
  if (!found) return {false, why_not, {}, {}};
  const fs::path dir = *found;
  const std::string hash = side.value("hash", "");
  const std::string file_name = side.value("file_name", "handin");
  fs::create_directories(dir);
  FileLock lock(dir / "lock");
  const fs::path verdict_file = dir / "check" / "verdict.json";
  auto verdict = nlohmann::json::parse(read_tail(verdict_file, 4u << 20), nullptr, false);
  if (verdict.is_discarded() || !verdict.is_object()) {
    const fs::path input = dir / file_name;
    if (const auto broken = fetch_handin(client, hash, input)) return {false, *broken, {}, {}};
    fs::remove_all(dir / "check");
    DetachedChildOptions child;
    child.command = fmt::format("exec {} handin check {} {} --out {} --no-smoke --sandbox {} {}",
                                shell_quote(own_binary().string()), shell_quote(game),
                                shell_quote(input.string()), shell_quote((dir / "check").string()),
                                sandbox_mode_key(settings.sandbox), settings.check_args);
    child.working_dir = dir;
    child.output_file = dir / "build-output.txt";
    child.output_cap = 1u << 20;
    ChildProcess process(std::move(child));
    process.wait_exit(std::chrono::hours(24));
    verdict = nlohmann::json::parse(read_tail(verdict_file, 4u << 20), nullptr, false);
    if (verdict.is_discarded() || !verdict.is_object()) {
      fs::remove_all(dir / "check");
      return {false, "its check did not finish here: " + process.exit_description(), {}, {}};
    }
  }
  if (verdict.value("verdict", "") != "accepted") {
    // Not kept: a machine's passing trouble (a full disk, a missing compiler since installed)
    // must not reject the hand-in here for good.
    fs::remove_all(dir / "check");
    return {false, "it does not build on this worker: " + verdict.value("reason", ""), {}, {}};
  }
  return {true, {}, verdict.value("run", ""), verdict.value("root", "")};
}

// A side of the game: a built hand-in, or a built-in agent ("engine level=3").
std::optional<Participant> participant(CourseClient& client, const std::string& game,
                                       const nlohmann::json& side, const WorkerSettings& settings,
                                       std::string& why_not) {
  Participant p;
  if (side.contains("agent")) {
    // Only arena's own engine: a worker runs no command the server names.
    static const std::regex engine_form("engine level=[1-5]");
    if (!std::regex_match(side.value("agent", ""), engine_form)) {
      why_not = "the server named an agent this worker does not play: " + side.value("agent", "");
      return std::nullopt;
    }
    auto parsed = tournament::parse_participant(side.value("agent", ""));
    if (!parsed) {
      why_not = "the server named an unknown agent: " + parsed.error;
      return std::nullopt;
    }
    p = *parsed.value;
  } else {
    const Built built = build_handin(client, game, side, settings);
    if (!built.ok) {
      why_not = fmt::format("{}: {}", side.value("name", "a hand-in"), built.why_not);
      return std::nullopt;
    }
    p.kind = AgentKind::Command;
    p.command = built.run;
    p.spec = "command " + built.run;
    p.dir = built.root;
  }
  return p;
}

// What the machine can enforce, probed once per channel (a probe takes half a second; a worker
// plays thousands of games on the same machine).
SandboxPlan sandbox_plan(SandboxMode mode, AgentChannel channel) {
  static std::mutex mutex;
  static std::map<std::pair<SandboxMode, AgentChannel>, SandboxPlan> plans;
  std::lock_guard lock(mutex);
  const auto key = std::pair{mode, channel};
  if (!plans.count(key)) plans.emplace(key, plan_sandbox(mode, channel));
  return plans.at(key);
}

}  // namespace

PlayedJob play_job(CourseClient& client, const nlohmann::json& lease,
                   const WorkerSettings& settings) {
  PlayedJob out;
  const GameInfo& game = game_named(lease.value("game", ""));
  const std::string game_name(game.name);
  std::string why_not;
  auto white = participant(client, game_name, lease["white"], settings, why_not);
  auto black =
      white ? participant(client, game_name, lease["black"], settings, why_not) : std::nullopt;
  if (!white || !black) {
    out.why_not = why_not;
    return out;
  }
  white->name = "white";
  black->name = "black";

  const fs::path dir = job_dir(settings, "games", lease.value("job", 0));
  fs::create_directories(dir / "run");
  fs::create_directories(dir / "files");
  tournament::SingleGame single;
  tournament::EventSettings& s = single.settings;
  s.game = game_name;
  s.participants = {*white, *black};
  s.move_time_ms = lease.value("move_time_ms", 0);
  s.working_dir = dir / "run";  // where a built-in agent runs; the game's files are hidden
  s.sandbox = settings.sandbox;
  const SandboxPlan plan = sandbox_plan(s.sandbox, tournament::agent_channel(game));
  single.seed = static_cast<std::uint64_t>(lease.value("job", 1));
  single.arena_binary = own_binary();
  single.stem = dir / "files" / "game";  // the folder is hidden from the agents
  if (plan.uses(Protection::Cpu) && !settings.cores.empty())
    single.cores = {std::vector<int>{settings.cores.front()},
                    std::vector<int>{settings.cores.back()}};
  const auto began = std::chrono::steady_clock::now();
  const GameRecord record = tournament::play_single_game(game, single, plan);
  out.played = true;
  // The worker's own paths are nobody's business on the server.
  out.record = nlohmann::json::parse(course::without_prefixes(
      to_json(record).dump(), {dir.string() + "/", settings.cache.string() + "/"}));
  out.white_log = read_tail(fs::path(single.stem) += ".white.log", course::kMaxKeptLog);
  out.black_log = read_tail(fs::path(single.stem) += ".black.log", course::kMaxKeptLog);
  out.summary =
      fmt::format("{} - {}: {} ({}), {} plies, {:.1f} s", lease["white"].value("name", "?"),
                  lease["black"].value("name", "?"), outcome_key(record.outcome), record.reason,
                  record.moves.size(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
  std::error_code ec;
  fs::remove_all(dir, ec);
  return out;
}

namespace {

// The server's options for a check, as separate shell-quoted words, or why this worker does not
// take them (course::refused_worker_check_option).
std::optional<std::string> check_options(const nlohmann::json& words, std::string& why_not) {
  std::vector<std::string> list;
  for (const auto& w : words.is_array() ? words : nlohmann::json::array())
    list.push_back(w.is_string() ? w.get<std::string>() : std::string());
  if (const auto refused = course::refused_worker_check_option(list)) {
    why_not = *refused;
    return std::nullopt;
  }
  std::string joined;
  for (const std::string& word : list) joined += " " + shell_quote(word);
  return joined;
}

}  // namespace

CheckedJob check_job(CourseClient& client, const nlohmann::json& lease,
                     const WorkerSettings& settings) {
  CheckedJob out;
  const GameInfo& game = game_named(lease.value("game", ""));
  const auto options =
      check_options(lease.value("check_options", nlohmann::json::array()), out.why_not);
  if (!options) return out;
  const nlohmann::json& side = lease["handin"];
  if (!handin_dir(side, settings, out.why_not)) return out;
  // A folder of its own: a version being checked again may be playing games from its cached
  // build meanwhile. Gone at the end, whatever happens.
  const fs::path dir = job_dir(settings, "checks", lease.value("job", 0));
  struct RemovedAtEnd {
    fs::path dir;
    ~RemovedAtEnd() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } removed_at_end{dir};
  const fs::path input = dir / side.value("file_name", "handin");
  if (const auto broken = fetch_handin(client, side.value("hash", ""), input)) {
    out.why_not = *broken;
    return out;
  }
  const fs::path output = dir / "check-output.txt";
  DetachedChildOptions child;
  child.command = fmt::format(
      "exec {} handin {} {} {} --out {} --sandbox {}{}", shell_quote(own_binary().string()),
      lease.value("grade", false) ? "grade" : "check", shell_quote(std::string(game.name)),
      shell_quote(input.string()), shell_quote((dir / "check").string()),
      sandbox_mode_key(settings.sandbox), *options);
  child.working_dir = dir;
  child.output_file = output;
  child.output_cap = 0;  // followed live; the check bounds what it prints itself
  // It dies with this worker (killed, or stopped by its server), as the server's own checks do.
  child.env = {"ARENA_PARENT_PID=" + std::to_string(::getpid())};
  const auto began = std::chrono::steady_clock::now();
  ChildProcess process(std::move(child));
  std::vector<std::string> paths = course::check_folder_prefixes(dir);
  paths.push_back(settings.cache.string() + "/");
  const auto strip = [&](std::string text) {
    return course::without_prefixes(std::move(text), paths);
  };
  const std::string renew = fmt::format("/api/worker/jobs/{}/renew", lease.value("job", 0));
  std::string told;
  while (!process.wait_exit(std::chrono::seconds(2))) {
    // The student follows the stages, as with the server's own checks: the last lines are
    // enough for the stage, and this machine's paths are not theirs to see.
    std::string tail = strip(read_tail(output, 2048));
    if (tail == told) continue;
    told = tail;
    try {
      const auto answer =
          client.post(renew, {{"lease", lease.value("lease", "")}, {"output", std::move(tail)}});
      if (answer.status == 409) {
        // The server took the job back (given to another worker, or checked again).
        process.kill_group();
        out.why_not = "the server took the check back";
        return out;
      }
    } catch (const std::exception&) {
      // The server is away for a moment: the stage shows at the next change.
    }
  }
  course::CheckReport report =
      course::read_check_folder(dir / "check", output, process.exit_description());
  if (!report.verdict.is_object()) {
    // The check itself broke here (killed, a full disk, a sandbox this machine lacks), not the
    // hand-in: given back, so that another try (maybe on another worker) decides.
    out.why_not = fmt::format("its check did not finish here ({}): {}", report.status,
                              strip(read_tail(output, 300)));
    return out;
  }
  report.build_log = strip(report.build_log);
  report.output = strip(report.output);
  out.checked = true;
  out.report = nlohmann::json::parse(
      strip(course::valid_utf8_json(course::check_report_json(report))), nullptr, false);
  out.summary =
      fmt::format("{}: {}, {:.1f} s", side.value("name", "?"), report.verdict.value("verdict", "?"),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
  return out;
}

}  // namespace arena::cli
