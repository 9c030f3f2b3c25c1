#include "tournament/match_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "games/morris/endgames.hpp"
#include "tournament/line_match_runner.hpp"
#include "tournament/morris_match_runner.hpp"
#include "tournament/soccer_match_runner.hpp"

namespace arena::tournament {
namespace {

// Plies assumed for the time cap of a game without a move limit.
constexpr int kPliesWithoutLimit = 1000;

// Protocols whose runner is not written yet: a clear error instead of a wrong game.
class UnsupportedRunner final : public MatchRunner {
 public:
  explicit UnsupportedRunner(std::string why) : why_(std::move(why)) {}
  GameRecord play(const MatchRequest&) override { throw std::runtime_error(why_); }

 private:
  std::string why_;
};

}  // namespace

TournamentProtocol tournament_protocol(const GameInfo& game) {
  if (game.course_log != nullptr) return TournamentProtocol::CourseLines;
  if (game.name == "morris") return TournamentProtocol::MorrisTwoPort;
  if (game.name == "soccer" || game.name == "paper-soccer")
    return TournamentProtocol::SoccerReferee;
  return TournamentProtocol::None;
}

std::unique_ptr<MatchRunner> match_runner_for(const GameInfo& game) {
  switch (tournament_protocol(game)) {
    case TournamentProtocol::CourseLines:
      return make_line_match_runner();
    case TournamentProtocol::MorrisTwoPort:
      return make_morris_match_runner();
    case TournamentProtocol::SoccerReferee:
      return make_soccer_match_runner();
    case TournamentProtocol::None:
      break;
  }
  throw std::runtime_error(fmt::format(
      "arena cannot run {} tournaments yet: no match runner for its course protocol (see "
      "docs/tournament.md, 'Adding a protocol')",
      game.title));
}

AgentChannel agent_channel(const GameInfo& game) {
  return tournament_protocol(game) == TournamentProtocol::SoccerReferee ? AgentChannel::Pipes
                                                                        : AgentChannel::Tcp;
}

bool tournament_supported(const GameInfo& game) {
  return tournament_protocol(game) != TournamentProtocol::None;
}

void check_participants_for(const GameInfo& game, const EventSettings& settings) {
  const int move_time =
      settings.move_time_ms > 0 ? settings.move_time_ms : game.default_move_time_ms;
  const TournamentProtocol protocol = tournament_protocol(game);
  if (std::string error = rules_error(game, settings.rules); !error.empty())
    throw std::runtime_error(error);
  if (protocol == TournamentProtocol::SoccerReferee && move_time < 10)
    throw std::runtime_error("the Paper Soccer referee's time per turn is at least 10 ms");
  if (protocol != TournamentProtocol::MorrisTwoPort && settings.morris_ports != MorrisPorts::Env)
    throw std::runtime_error("--morris-ports applies only to Nine Men's Morris");
  for (const Participant& p : settings.participants) {
    if (p.kind == AgentKind::SoccerRef &&
        tournament_protocol(game) != TournamentProtocol::SoccerReferee)
      throw std::runtime_error(
          fmt::format("participant '{}': soccer-ref agents play only Paper Soccer", p.name));
    if (p.kind == AgentKind::Engine && p.time_ms > move_time)
      throw std::runtime_error(fmt::format(
          "participant '{}': engine time={} ms is more than the event's {} ms per move; it would "
          "lose every game on time",
          p.name, p.time_ms, move_time));
  }
}

std::chrono::milliseconds game_time_cap(const GameInfo& game, const EventSettings& settings) {
  if (settings.game_timeout_ms > 0) return std::chrono::milliseconds(settings.game_timeout_ms);
  const int per_player = settings.rules.moves_per_player.value_or(game.default_moves_per_player);
  const long long plies = per_player > 0 ? 2LL * per_player : kPliesWithoutLimit;
  const long long move_time =
      settings.move_time_ms > 0 ? settings.move_time_ms : game.default_move_time_ms;
  const long long once = 2LL * settings.connect_timeout_ms + settings.warmup_ms + plies * move_time;
  return std::chrono::milliseconds(2 * once + 60'000);
}

int cores_per_game(const EventSettings& settings) {
  int most = 1;
  for (const auto& p : settings.participants) most = std::max(most, limits_of(settings, p).cpus);
  return 2 * most;
}

std::array<std::vector<int>, 2> game_cores(const EventSettings& settings, const SandboxPlan& plan,
                                           const std::vector<int>& cores, int slot,
                                           const Participant& white, const Participant& black) {
  if (!plan.uses(Protection::Cpu) || cores.empty()) return {};
  const int n = static_cast<int>(cores.size());
  const int per_game = cores_per_game(settings);
  const int base = slot * per_game;
  std::array<std::vector<int>, 2> out;
  for (int side = 0; side < 2; ++side) {
    const int count = limits_of(settings, side == 0 ? white : black).cpus;
    for (int k = 0; k < count; ++k)
      out[static_cast<std::size_t>(side)].push_back(
          cores[static_cast<std::size_t>((base + side * per_game / 2 + k) % n)]);
  }
  return out;
}

std::filesystem::path agent_dir(const EventSettings& settings, const Participant& p) {
  if (p.dir.empty()) return settings.working_dir;
  return p.dir.is_absolute() ? p.dir : settings.working_dir / p.dir;
}

AgentJailSpec agent_jail_spec(const MatchRequest& req, Side side) {
  const Participant& p = side == Side::White ? *req.white : *req.black;
  AgentJailSpec spec;
  spec.limits = limits_of(*req.settings, p);
  spec.cpus = req.cores[index(side)];
  spec.own_dir = agent_dir(*req.settings, p);
  if (!req.arena_binary.empty()) spec.readable.push_back(req.arena_binary.parent_path());
  // arena's own Morris agents read the endgame databases of the cache folder.
  if (p.kind != AgentKind::Command && req.game->name == "morris") {
    std::error_code ec;
    const auto tables = std::filesystem::absolute(morris::endgame::default_directory(), ec);
    if (!ec && std::filesystem::is_directory(tables, ec)) spec.readable.push_back(tables);
  }
  if (!req.event_dir.empty()) spec.hidden.push_back(std::filesystem::absolute(req.event_dir));
  // Every other participant's folder, unless it is this agent's own too.
  for (const Participant& other : req.settings->participants) {
    const auto dir = agent_dir(*req.settings, other);
    if (&other != &p && dir != spec.own_dir && !other.dir.empty()) spec.hidden.push_back(dir);
  }
  spec.label = fmt::format("{}-{}", side_key(side), p.name);
  return spec;
}

std::unique_ptr<AgentJail> make_agent_jail(const MatchRequest& req, Side side) {
  if (!req.sandbox || !req.sandbox->any()) return nullptr;
  return std::make_unique<AgentJail>(*req.sandbox, agent_jail_spec(req, side));
}

nlohmann::json sandbox_block(const MatchRequest& req) {
  if (!req.sandbox) return nlohmann::json::object();
  return sandbox_record(*req.sandbox, limits_of(*req.settings, *req.white),
                        limits_of(*req.settings, *req.black));
}

GameRecord forfeit_record(const MatchRequest& request, Side loser, std::string reason,
                          std::string detail) {
  GameRecord r;
  r.game = std::string(request.game->name);
  r.settings = {
      {"move_time_ms", request.move_time_ms},
      {"warmup_ms", request.settings->warmup_ms},
      {"moves_per_player",
       request.settings->rules.moves_per_player.value_or(request.game->default_moves_per_player)},
      {"limit_rule", limit_rule_key(request.settings->rules.limit_rule)},
      {"referee", "arena tournament (the game did not start)"},
  };
  r.white.name = request.white->name;
  r.black.name = request.black->name;
  r.started_at = r.ended_at = utc_now_iso8601();
  r.outcome = win_for(opposite(loser));
  r.reason = std::move(reason);
  r.detail = std::move(detail);
  return r;
}

}  // namespace arena::tournament
