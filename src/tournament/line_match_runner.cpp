#include "tournament/line_match_runner.hpp"

#include "referee/course_server.hpp"
#include "tournament/agent_command.hpp"
#include "tournament/served_match.hpp"

namespace arena::tournament {
namespace {

// The course server of one game, on a free port.
class LineGame final : public ServedGame {
 public:
  LineGame(const MatchRequest& req, const ServedGameSetup& setup)
      : req_(req), server_(*req.game, options(req, setup), *setup.transcript) {
    port_ = server_.listen();
  }
  void run() override { server_.run(false); }
  void stop() override { server_.stop(); }
  std::vector<std::filesystem::path> record_paths() const override {
    return server_.record_paths();
  }
  std::filesystem::path run_directory() const override { return server_.run_directory(); }
  std::uint16_t port(Side) const override { return port_; }

  // An external agent gets the host and port appended (or put where its template says); a
  // built-in one is `arena connect`.
  AgentLaunch agent(const Participant& p, Side side, std::uint64_t seed) const override {
    const std::string port = std::to_string(port_);
    if (p.kind == AgentKind::Command) {
      auto values = template_values(req_, side, seed);
      values.port = values.white_port = values.black_port = port_;
      if (auto command = expand_agent_command(p.command, values)) return {*command, {}};
      return {p.command + " " + kAgentHost + " " + port, {}};
    }
    std::vector<std::string> argv = {req_.arena_binary.string(), "connect",
                                     std::string(req_.game->name), kAgentHost, port};
    // The engine's model of the rules is the event's, not connect's default (the course's).
    const RuleOptions& rules = req_.settings->rules;
    argv.insert(argv.end(), {"--limit-rule", std::string(limit_rule_key(rules.limit_rule))});
    if (rules.moves_per_player)
      argv.insert(argv.end(), {"--moves-per-player", std::to_string(*rules.moves_per_player)});
    const auto player = builtin_player_args(req_, p, seed);
    argv.insert(argv.end(), player.begin(), player.end());
    return {exec_command(argv), {}};
  }

 private:
  const MatchRequest& req_;
  CourseServer server_;
  std::uint16_t port_ = 0;

  static CourseServerOptions options(const MatchRequest& req, const ServedGameSetup& setup) {
    CourseServerOptions o;
    o.host = kAgentHost;
    o.port = 0;
    o.move_time_ms = req.move_time_ms;
    o.warmup_ms = req.settings->warmup_ms;
    o.games = 1;
    o.rules = req.settings->rules;
    o.records_dir = setup.records_dir;
    o.on_seat = setup.on_seat;
    o.cpu_clock = setup.cpu_clock;
    o.max_plies = req.max_plies;
    return o;
  }
};

class LineMatchRunner final : public MatchRunner {
 public:
  GameRecord play(const MatchRequest& req) override {
    return play_served_game(req, [](const MatchRequest& r, const ServedGameSetup& setup) {
      return std::make_unique<LineGame>(r, setup);
    });
  }
};

}  // namespace

std::unique_ptr<MatchRunner> make_line_match_runner() {
  return std::make_unique<LineMatchRunner>();
}

}  // namespace arena::tournament
