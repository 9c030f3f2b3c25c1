#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "core/text.hpp"
#include "games/registry.hpp"
#include "referee/mulino_client.hpp"

namespace arena::cli {
namespace {

// A person at the terminal, prompted as the course's MulinoHumanClient prompted (the client has
// already shown the state as State.toString() printed it). A mistyped move is asked again.
class MulinoHuman final : public Player {
 public:
  std::string name() const override { return "human"; }
  std::string choose(const AnyState& state) override {
    while (true) {
      std::string line;
      if (!std::getline(std::cin, line))
        throw std::runtime_error("input closed before a move was entered");
      const std::string_view text = trim(line);
      if (text.empty()) continue;
      auto probe = state.clone();
      const auto played =
          text.size() <= 16 ? probe->play(text) : Parsed<std::string>::fail("too long");
      if (played) return *played.value;
      std::string legal;
      for (const auto& m : state.legal_moves()) legal += " " + m;
      fmt::print("Not a legal move ({}). Legal moves:{}\nYour move: ", played.error, legal);
      std::cout.flush();
    }
  }
};

}  // namespace

void add_mulino(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "mulino",
      "Play Nine Men's Morris on a course server (the Bologna Java protocol) as White or Black");
  struct Options {
    std::string colour;
    MulinoClientOptions client;
    bool human = false;
    int move_time_ms = 60000;
    double connect_timeout_s = 60;
    BuiltInPlayerOptions built_in;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("colour", o->colour, "White (connects to the White port) or Black")
      ->required()
      ->transform(CLI::IsMember({"White", "Black"}, CLI::ignore_case));
  cmd->add_option("--host", o->client.host, "Server address")->capture_default_str();
  cmd->add_option("--white-port", o->client.white_port, "The server's port for White")
      ->capture_default_str();
  cmd->add_option("--black-port", o->client.black_port, "The server's port for Black")
      ->capture_default_str();
  cmd->add_option("--move-time", o->move_time_ms,
                  "The server's time per move in ms; the engine answers well inside it")
      ->capture_default_str()
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--connect-timeout", o->connect_timeout_s,
                  "Seconds to keep retrying while the server's port is not open yet")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_flag("--human", o->human,
                "Play yourself: the board is shown as the course's text client showed it");
  add_built_in_player_options(*cmd, o->built_in);
  cmd->add_flag("--course-output", o->client.course_output,
                "Print every state as the course's client did (always on with --human)");
  cmd->callback([o, &exit_code] {
    o->client.side = to_upper(o->colour) == "WHITE" ? Side::White : Side::Black;
    o->client.connect_timeout_ms = static_cast<int>(o->connect_timeout_s * 1000);
    std::unique_ptr<Player> player;
    if (o->human) {
      player = std::make_unique<MulinoHuman>();
      o->client.course_output = true;
    } else {
      player = make_built_in_player(game_named("morris"), o->built_in, o->move_time_ms);
    }
    exit_code = run_client(
        [&] { return run_mulino_client(o->client, *player, o->human ? std::cout : std::cerr); });
  });
}

}  // namespace arena::cli
