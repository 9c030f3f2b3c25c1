#include "games/registry.hpp"

#include <array>

#include "games/fission/course_log.hpp"
#include "games/fission/eval.hpp"
#include "games/fission/view.hpp"
#include "games/game_info.hpp"
#include "games/morris/eval.hpp"
#include "games/morris/view.hpp"
#include "games/murus/course_log.hpp"
#include "games/murus/eval.hpp"
#include "games/murus/view.hpp"
#include "games/soccer/game_info.hpp"
#include "games/soccer/view.hpp"

namespace arena {
namespace {

const CourseLogStyle kFissionLog{
    [](const AnyState& s) { return fission::course_board(typed_state<fission::State>(s)); },
    [](const AnyState& s) { return fission::course_counts(typed_state<fission::State>(s)); },
};

const CourseLogStyle kMurusLog{
    [](const AnyState& s) { return murus::course_board(typed_state<murus::State>(s)); },
    [](const AnyState& s) { return murus::course_counts(typed_state<murus::State>(s)); },
};

std::span<const GameInfo> registry() {
  // Adding a game adds one entry here.
  static const GameInfo games[] = {
      make_game_info<fission::State>(
          {.name = "fission",
           .title = "Fission",
           .move_example = "B4,NE",
           .default_move_time_ms = 1000,
           .default_moves_per_player = 50,
           .course_limit_rule = LimitRule::MoreStones,
           .course_log = &kFissionLog,
           .view =
               [](const AnyState& s) { return fission::view(typed_state<fission::State>(s)); }}),
      make_game_info<murus::State>(
          {.name = "murus",
           .title = "Murus Gallicus",
           .move_example = "G4,NE",
           .default_move_time_ms = 1000,
           .default_moves_per_player = 60,
           .bench_perft_depth = 6,
           .course_log = &kMurusLog,
           .view = [](const AnyState& s) { return murus::view(typed_state<murus::State>(s)); }}),
      make_game_info<morris::State>(
          {.name = "morris",
           .title = "Nine Men's Morris",
           .move_example = "a1",
           .default_move_time_ms = 60000,
           .view = [](const AnyState& s) { return morris::view(typed_state<morris::State>(s)); }}),
      soccer::game_info({.name = "soccer",
                         .title = "Paper Soccer",
                         .move_example = "3 0 1 7",
                         .default_move_time_ms = 10000,
                         .bench_perft_depth = 6,
                         .bench_search_depth = 10,
                         .view =
                             [](const AnyState& s) {
                               const soccer::Adapter& a = soccer::adapter_of(s);
                               return soccer::view(a.typed(), a.turns());
                             }}),
  };
  return games;
}

}  // namespace

std::span<const GameInfo> all_games() {
  return registry();
}

const GameInfo* find_game(std::string_view name) {
  for (const GameInfo& g : registry())
    if (g.name == name) return &g;
  return nullptr;
}

std::string rules_error(const GameInfo& game, const RuleOptions& rules) {
  if (game.default_moves_per_player == 0 &&
      (rules.moves_per_player || rules.limit_rule != LimitRule::Draw))
    return std::string(game.title) +
           " has no move limit: --moves-per-player and --limit-rule do not apply";
  return {};
}

std::string game_names() {
  std::string out;
  for (const GameInfo& g : registry()) {
    if (!out.empty()) out += ", ";
    out += g.name;
  }
  return out;
}

}  // namespace arena
