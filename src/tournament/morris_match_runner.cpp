#include "tournament/morris_match_runner.hpp"

#include <fmt/format.h>

#include <cmath>

#include "games/morris/endgames.hpp"
#include "referee/morris_server.hpp"
#include "tournament/agent_command.hpp"
#include "tournament/served_match.hpp"

namespace arena::tournament {
namespace {

// The course's ports, for agents that have them built in.
constexpr std::uint16_t kCourseWhitePort = 5800;
constexpr std::uint16_t kCourseBlackPort = 5801;

class MorrisGame final : public ServedGame {
 public:
  MorrisGame(const MatchRequest& req, const ServedGameSetup& setup)
      : req_(req), server_(options(req, setup), *setup.transcript) {
    ports_ = server_.listen();
  }
  void run() override { server_.run(false); }
  void stop() override { server_.stop(); }
  std::vector<std::filesystem::path> record_paths() const override {
    return server_.record_paths();
  }
  std::filesystem::path run_directory() const override { return server_.run_directory(); }
  std::uint16_t port(Side side) const override {
    return side == Side::White ? ports_.first : ports_.second;
  }

  // An external agent gets its colour as the course's agents did, and the ports in its
  // environment (and as options with --morris-ports args); a built-in one is `arena mulino`.
  AgentLaunch agent(const Participant& p, Side side, std::uint64_t seed) const override {
    const std::string white = std::to_string(ports_.first), black = std::to_string(ports_.second);
    const std::string colour(side_name(side));
    if (p.kind == AgentKind::Command) {
      auto values = template_values(req_, side, seed);
      values.port = side == Side::White ? ports_.first : ports_.second;
      values.white_port = ports_.first;
      values.black_port = ports_.second;
      std::string command;
      if (auto expanded = expand_agent_command(p.command, values)) {
        command = *expanded;  // its template says where everything goes
      } else {
        command = p.command + " " + colour;
        if (req_.settings->morris_ports == MorrisPorts::Args)
          command += fmt::format(" --white-port {} --black-port {}", white, black);
      }
      return {command,
              {fmt::format("ARENA_HOST={}", kAgentHost), "ARENA_WHITE_PORT=" + white,
               "ARENA_BLACK_PORT=" + black}};
    }
    // The agent retries its connection no longer than the event waits for it.
    const long connect_s = std::lround(std::ceil(req_.settings->connect_timeout_ms / 1000.0));
    std::vector<std::string> argv = {req_.arena_binary.string(),
                                     "mulino",
                                     colour,
                                     "--host",
                                     kAgentHost,
                                     "--white-port",
                                     white,
                                     "--black-port",
                                     black,
                                     "--connect-timeout",
                                     std::to_string(connect_s)};
    const auto player = builtin_player_args(req_, p, seed);
    argv.insert(argv.end(), player.begin(), player.end());
    // Its sandbox has another HOME: it finds the endgame databases through the variable.
    return {exec_command(argv),
            {"ARENA_ENDGAMES=" +
             std::filesystem::absolute(morris::endgame::default_directory()).string()}};
  }

 private:
  const MatchRequest& req_;
  MorrisServer server_;
  std::pair<std::uint16_t, std::uint16_t> ports_;

  static MorrisServerOptions options(const MatchRequest& req, const ServedGameSetup& setup) {
    MorrisServerOptions o;
    o.host = kAgentHost;
    const bool course = req.settings->morris_ports == MorrisPorts::Course;
    o.white_port = course ? kCourseWhitePort : 0;
    o.black_port = course ? kCourseBlackPort : 0;
    o.move_time_ms = req.move_time_ms;
    o.games = 1;
    o.records_dir = setup.records_dir;
    o.on_seat = setup.on_seat;
    o.cpu_clock = setup.cpu_clock;
    o.max_plies = req.max_plies;
    o.on_wrong_port = setup.on_wrong_port;
    return o;
  }
};

class MorrisMatchRunner final : public MatchRunner {
 public:
  GameRecord play(const MatchRequest& req) override {
    return play_served_game(req, [](const MatchRequest& r, const ServedGameSetup& setup) {
      return std::make_unique<MorrisGame>(r, setup);
    });
  }
};

}  // namespace

std::unique_ptr<MatchRunner> make_morris_match_runner() {
  return std::make_unique<MorrisMatchRunner>();
}

}  // namespace arena::tournament
