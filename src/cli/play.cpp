#include <fmt/format.h>

#include <array>
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "cli/human_player.hpp"
#include "referee/local_match.hpp"

namespace arena::cli {
namespace {

enum class SeatKind { Engine, Random, Greedy, Human };

std::unique_ptr<Player> make_seat(const GameInfo& g, SeatKind kind, int move_time_ms, int depth,
                                  std::uint64_t seed) {
  if (kind == SeatKind::Human)
    return g.make_human ? g.make_human(std::cin, std::cout)
                        : std::make_unique<HumanPlayer>(std::cin, std::cout);
  PlayerSpec spec;
  spec.kind = kind == SeatKind::Random   ? PlayerKind::Random
              : kind == SeatKind::Greedy ? PlayerKind::Greedy
                                         : PlayerKind::Engine;
  spec.move_time_ms = move_time_ms;
  spec.depth = depth;
  spec.seed = seed;
  return g.make_player(spec);
}

}  // namespace

void add_play(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("play", "Play games locally, without a network");
  struct Options {
    std::string game;
    SeatKind white = SeatKind::Engine, black = SeatKind::Random;
    int move_time_ms = 0;
    int depth = 0;
    int games = 1;
    std::uint64_t seed = 1;
    bool quiet = false;
    int moves_per_player = 0;
    LimitRule limit_rule = LimitRule::Draw;
    std::string record;
  };
  auto o = std::make_shared<Options>();
  const std::map<std::string, SeatKind> kinds{{"engine", SeatKind::Engine},
                                              {"random", SeatKind::Random},
                                              {"greedy", SeatKind::Greedy},
                                              {"human", SeatKind::Human}};
  add_game_argument(*cmd, o->game);
  cmd->add_option("--white", o->white, "White player: engine, random, greedy or human")
      ->transform(one_of(kinds))
      ->type_name("NAME")
      ->default_str("engine");
  cmd->add_option("--black", o->black, "Black player: engine, random, greedy or human")
      ->transform(one_of(kinds))
      ->type_name("NAME")
      ->default_str("random");
  cmd->add_option("--move-time", o->move_time_ms,
                  "Engine time per move in ms (default: the course's)")
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--depth", o->depth, "Engine searches to this depth instead (deterministic)")
      ->check(CLI::Range(1, 60));
  cmd->add_option("--games", o->games, "Number of games; colours alternate after each game")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", o->seed, "Seed for random and greedy players (game i uses seed+i)")
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", o->quiet, "Print only each game's result and the tally");
  cmd->add_option("--record", o->record, "Write the (last) game's JSON record to this file");
  add_rule_options(*cmd, o->moves_per_player, o->limit_rule);
  cmd->callback([o, &exit_code] {
    const GameInfo& g = game_named(o->game);
    const int move_time = o->move_time_ms > 0 ? o->move_time_ms : g.default_move_time_ms;
    const std::array<SeatKind, 2> kinds = {o->white, o->black};
    std::array<int, 3> tally{};  // wins of the first-named player, of the second, draws
    for (int i = 0; i < o->games; ++i) {
      // Player A is --white in even games and Black in odd ones.
      const bool swapped = i % 2 == 1;
      auto a = make_seat(g, kinds[0], move_time, o->depth, o->seed + 2 * i);
      auto b = make_seat(g, kinds[1], move_time, o->depth, o->seed + 2 * i + 1);
      std::array<Player*, 2> seats = swapped ? std::array<Player*, 2>{b.get(), a.get()}
                                             : std::array<Player*, 2>{a.get(), b.get()};
      LocalMatchOptions opts;
      opts.rules = rule_options(o->game, o->moves_per_player, o->limit_rule);
      opts.move_time_ms = move_time;
      opts.live_record = o->record;  // followed live by `arena web`
      const bool show = !o->quiet && kinds[0] != SeatKind::Human && kinds[1] != SeatKind::Human;
      if (!o->quiet)
        opts.on_move = [&, show](const AnyState& s, const MoveRecord& m) {
          fmt::print("{:>4}. {:<5} {:<10} {:>6} ms  {}\n", m.ply, side_name(m.side), m.move,
                     m.time_ms, seats[index(m.side)]->last_info());
          if (show) fmt::print("{}\n", s.render());
        };
      GameRecord r;
      try {
        r = play_local_match(g, seats, opts);
      } catch (const std::exception& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        exit_code = 1;
        return;
      }
      const char* winner = r.outcome == Outcome::Draw        ? "draw"
                           : r.outcome == Outcome::WhiteWins ? "White wins"
                                                             : "Black wins";
      if (r.outcome == Outcome::Draw)
        ++tally[2];
      else
        ++tally[(r.outcome == Outcome::WhiteWins) == !swapped ? 0 : 1];
      fmt::print("Game {}: {} (White) vs {} (Black): {} after {} plies ({}: {})\n", i + 1,
                 r.white.name, r.black.name, winner, r.moves.size(), r.reason, r.detail);
      if (!o->record.empty()) write_record(o->record, r);
    }
    if (o->games > 1)
      fmt::print("Tally: {} {} wins, {} {} wins, {} draws\n", tally[0],
                 o->white == o->black ? "player A" : "--white", tally[1],
                 o->white == o->black ? "player B" : "--black", tally[2]);
  });
}

}  // namespace arena::cli
