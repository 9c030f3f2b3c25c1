#include "tournament/soccer_match_runner.hpp"

#include <fmt/format.h>
#include <signal.h>

#include <fstream>
#include <thread>

#include "sandbox/child_process.hpp"
#include "tournament/agent_command.hpp"
#include "tournament/live_record.hpp"
#include "tournament/served_match.hpp"
#include "tournament/start_failure.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A referee stopped at the deadline gets this long to end its bots (it does on SIGTERM).
constexpr milliseconds kStopGrace{1000};

// The bot command of participant p, playing `side` (White: player 1, A).
std::string bot_command(const MatchRequest& req, const Participant& p, Side side,
                        std::uint64_t seed) {
  if (p.kind == AgentKind::Command)
    return expand_agent_command(p.command, template_values(req, side, seed)).value_or(p.command);
  if (p.kind == AgentKind::SoccerRef)
    return exec_command({req.arena_binary.string(), "soccer-ref", "silent", std::to_string(p.level),
                         std::to_string(seed)});
  std::vector<std::string> argv = {req.arena_binary.string(), "soccer-bot"};
  const auto player = builtin_player_args(req, p, seed);
  argv.insert(argv.end(), player.begin(), player.end());
  return exec_command(argv);
}

fs::path record_in(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") return e.path();
  return {};
}

std::string last_line_of(const fs::path& file) {
  std::ifstream in(file);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

class SoccerMatchRunner final : public MatchRunner {
 public:
  GameRecord play(const MatchRequest& req) override {
    const fs::path dir = fs::absolute(req.stem.parent_path());
    const std::string stem = req.stem.filename().string();
    const fs::path work = dir / (stem + ".tmp");
    fs::remove_all(work);
    fs::create_directories(work);
    const fs::path transcript = dir / (stem + ".server.txt");
    fs::remove(transcript);
    fs::path logs[2];
    for (Side s : {Side::White, Side::Black}) {
      logs[index(s)] = dir / fmt::format("{}.{}.log", stem, side_key(s));
      fs::remove(logs[index(s)]);
    }

    // Player 1 of the course referee moves first: White.
    const std::string white = bot_command(req, *req.white, Side::White, req.seed);
    const std::string black =
        bot_command(req, *req.black, Side::Black, req.seed ^ 0x5851F42D4C957F2DULL);
    const double cpu_s = req.move_time_ms / 1000.0;
    // The referee's stderr is its transcript: each bot's messages go to a file of its own.
    std::vector<std::string> argv = {
        req.arena_binary.string(),
        "soccer-referee",
        white,
        black,
        "-t",
        fmt::format("{}", cpu_s),
        "--log",
        (dir / (stem + ".log")).string(),
        "--records",
        work.string(),
        "--verbose",
        "--bot-log1",
        logs[0].string(),
        "--bot-log2",
        logs[1].string(),
        "--sandbox",
        std::string(sandbox_mode_key(req.sandbox ? req.sandbox->mode : SandboxMode::Off))};
    if (req.max_plies > 0) argv.insert(argv.end(), {"--max-plies", std::to_string(req.max_plies)});
    if (req.sandbox && req.sandbox->any()) {
      // The bots' folders, cores, limits and hidden paths, as this event gives them.
      const fs::path config = work / "bots.sandbox";  // JSON, but not the record (*.json)
      write_bot_jails(config, agent_jail_spec(req, Side::White), agent_jail_spec(req, Side::Black));
      argv.insert(argv.end(), {"--sandbox-config", config.string()});
    }
    const std::string referee = exec_command(argv);

    ChildProcess child(DetachedChildOptions{referee, req.settings->working_dir, transcript, {}});
    LiveRecordMirror live(req, work);
    while (!child.ended() && Clock::now() < req.deadline)
      std::this_thread::sleep_for(milliseconds(20));
    const bool cut_off = !child.ended();
    if (cut_off) {
      child.signal_group(SIGTERM);  // the referee ends its bots, then itself
      child.wait_exit(kStopGrace);
    }
    child.kill_group();
    live.stop();
    const std::string status = child.exit_description();
    const fs::path record_path = record_in(work);
    GameRecord record;
    if (cut_off) {
      // The moves so far, from the referee's live record, if it has one.
      record = forfeit_record(req, Side::White, "aborted", "");
      try {
        if (!record_path.empty()) record = read_record(record_path);
      } catch (const std::exception&) {
      }
      record.outcome = Outcome::Ongoing;
      record.reason = "aborted";
      record.detail = "the game was cut off at the event's time cap";
      record.ended_at = utc_now_iso8601();
    } else if (!record_path.empty()) {
      record = read_record(record_path);
    } else {
      fs::remove_all(work);
      throw std::runtime_error(fmt::format("the Paper Soccer referee {} without a record: {}",
                                           status, last_line_of(transcript)));
    }
    fs::remove_all(work);
    record = finish(req, std::move(record), status);
    // The referee's detail has the bot's status ("(exited with status 1)"): the log says why.
    if (record.outcome == Outcome::WhiteWins || record.outcome == Outcome::BlackWins) {
      const Side loser = record.outcome == Outcome::WhiteWins ? Side::Black : Side::White;
      const auto open = record.detail.rfind('(');
      const auto close = record.detail.rfind(')');
      const std::string bot_status =
          open != std::string::npos && close != std::string::npos && close > open
              ? record.detail.substr(open + 1, close - open - 1)
              : std::string{};
      explain_start_failure(record, loser, logs[index(loser)], bot_status);
    }
    return record;
  }

 private:
  static GameRecord finish(const MatchRequest& req, GameRecord record, const std::string& status) {
    // The referee records the bot commands as addresses: the participants' own say it better.
    record.white.address.clear();
    record.black.address.clear();
    name_players(req, record);
    record.events.push_back("referee " + status);
    // A bot that stopped because its process failed crashed; one that exited cleanly (or lived
    // on) disconnected.
    if (record.reason == "disconnect" &&
        (record.detail.find("killed by signal") != std::string::npos ||
         (record.detail.find("exited with status") != std::string::npos &&
          record.detail.find("exited with status 0)") == std::string::npos)))
      record.reason = "crash";
    return record;
  }
};

}  // namespace

std::unique_ptr<MatchRunner> make_soccer_match_runner() {
  return std::make_unique<SoccerMatchRunner>();
}

}  // namespace arena::tournament
