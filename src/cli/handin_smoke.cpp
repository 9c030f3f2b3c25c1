#include "cli/handin_smoke.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cli/handin_build.hpp"
#include "tournament/event.hpp"
#include "tournament/match_runner.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using tournament::AgentKind;
using tournament::Participant;

constexpr std::string_view kFaults[] = {"timeout",    "illegal-move", "crash",
                                        "disconnect", "memory-limit", "too-many-processes"};

tournament::EventSettings game_settings(const GameInfo& game, const SmokeOptions& o,
                                        const HandinGameSpec& spec) {
  tournament::EventSettings s;
  s.game = std::string(game.name);
  Participant agent;
  agent.name = "handin";
  agent.kind = AgentKind::Command;
  agent.command = o.command;
  agent.spec = "command " + o.command;
  agent.dir = o.root;
  Participant opponent = spec.opponent;
  if (opponent.name.empty() || opponent.name == agent.name) opponent.name = "opponent";
  s.participants = {agent, opponent};
  s.move_time_ms = o.move_time_ms;
  if (spec.short_game && o.max_plies > 0) {
    // The time cap of a game of that many plies (as game_time_cap() counts), not of a whole one.
    const long long move_time = o.move_time_ms > 0 ? o.move_time_ms : game.default_move_time_ms;
    const long long once = 2LL * s.connect_timeout_ms + s.warmup_ms + o.max_plies * move_time;
    s.game_timeout_ms = static_cast<int>(std::min<long long>(2 * once + 60'000, 1'000'000'000));
  }
  // Where the built-in player runs: the check's folder, not the smoke folder (the event folder,
  // which every agent's sandbox hides).
  s.working_dir = o.dir.parent_path();
  s.sandbox = o.sandbox;
  return s;
}

}  // namespace

nlohmann::json SmokeGame::to_json() const {
  nlohmann::json j = {{"side", side_key(side)},    {"result", result},  {"reason", reason},
                      {"detail", detail},          {"plies", plies},    {"fault", fault},
                      {"record", record.string()}, {"seconds", seconds}};
  if (cpu_s) j["cpu_s"] = *cpu_s;
  if (peak_memory_mb) j["peak_memory_mb"] = *peak_memory_mb;
  return j;
}

std::string SmokeGame::summary() const {
  std::string s = fmt::format("as {}: {} ({}), {} plies", side_name(side), result, reason, plies);
  if (cpu_s) s += fmt::format(", CPU {:.2f} s", *cpu_s);
  if (peak_memory_mb) s += fmt::format(", peak {:.0f} MB", *peak_memory_mb);
  return s;
}

SmokeGame play_smoke_game(const GameInfo& game, const SmokeOptions& o, Side side) {
  HandinGameSpec spec;
  spec.opponent.name = "random";
  spec.opponent.kind = AgentKind::Random;
  spec.opponent.spec = "random";
  spec.side = side;
  spec.seed = side == Side::White ? 1 : 2;
  spec.name = fmt::format("{}-handin-as-{}", side == Side::White ? 1 : 2, side_key(side));
  spec.short_game = true;
  return play_handin_game(game, o, spec);
}

SmokeGame play_handin_game(const GameInfo& game, const SmokeOptions& o,
                           const HandinGameSpec& spec) {
  const Side side = spec.side;
  const tournament::EventSettings settings = game_settings(game, o, spec);
  const SandboxPlan plan = plan_sandbox(settings.sandbox, tournament::agent_channel(game));
  const Participant& agent = settings.participants[0];
  const Participant& opponent = settings.participants[1];
  fs::create_directories(o.dir);
  tournament::MatchRequest req;
  req.game = &game;
  req.settings = &settings;
  req.white = side == Side::White ? &agent : &opponent;
  req.black = side == Side::White ? &opponent : &agent;
  req.seed = spec.seed;
  req.move_time_ms = o.move_time_ms > 0 ? o.move_time_ms : game.default_move_time_ms;
  req.arena_binary = o.arena_binary;
  req.stem = o.dir / spec.name;
  req.sandbox = &plan;
  req.event_dir = o.dir;
  req.max_plies = spec.short_game ? o.max_plies : 0;
  const auto began = Clock::now();
  req.deadline = began + tournament::game_time_cap(game, settings);
  GameRecord record = tournament::match_runner_for(game)->play(req);
  write_record(fs::path(req.stem) += ".json", record);

  SmokeGame g;
  g.side = side;
  g.seconds = std::chrono::duration<double>(Clock::now() - began).count();
  g.record = fs::path(req.stem) += ".json";
  g.reason = record.reason;
  g.detail = record.detail;
  g.plies = static_cast<int>(record.moves.size());
  const Outcome won = side == Side::White ? Outcome::WhiteWins : Outcome::BlackWins;
  const Outcome lost = side == Side::White ? Outcome::BlackWins : Outcome::WhiteWins;
  g.result = record.outcome == won ? "won" : record.outcome == lost ? "lost" : "draw";
  const bool fault_reason =
      std::find(std::begin(kFaults), std::end(kFaults), record.reason) != std::end(kFaults);
  // A fault decides against the side that made it; an aborted game is the agent's too.
  g.fault = (fault_reason && record.outcome != won) || record.reason == "aborted" ||
            record.outcome == Outcome::Ongoing;
  const std::string key(side_key(side));
  if (record.sandbox.contains(key)) {
    const auto& use = record.sandbox[key];
    if (use.contains("cpu_ms")) g.cpu_s = use["cpu_ms"].get<double>() / 1000.0;
    if (use.contains("peak_memory_bytes"))
      g.peak_memory_mb = use["peak_memory_bytes"].get<double>() / static_cast<double>(kMiB);
  }
  if (g.fault) g.log_tail = last_lines(fs::path(req.stem) += "." + key + ".log", 20);
  return g;
}

}  // namespace arena::cli
