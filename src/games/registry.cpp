#include "games/registry.hpp"

#include <array>

#include "games/fission/course_log.hpp"
#include "games/fission/eval.hpp"
#include "games/game_info.hpp"
#include "games/soccer/game_info.hpp"

namespace arena {
namespace {

const CourseLogStyle kFissionLog{
    [](const AnyState& s) { return fission::course_board(typed_state<fission::State>(s)); },
    [](const AnyState& s) { return fission::course_counts(typed_state<fission::State>(s)); },
};

const std::array<GameInfo, 2>& registry() {
  static const std::array<GameInfo, 2> games = {
      make_game_info<fission::State>({.name = "fission",
                                      .title = "Fission",
                                      .move_example = "B4,NE",
                                      .default_move_time_ms = 1000,
                                      .default_moves_per_player = 50,
                                      .course_log = &kFissionLog}),
      soccer::game_info({.name = "soccer",
                         .title = "Paper Soccer",
                         .move_example = "3 0 1 7",
                         .default_move_time_ms = 10000,
                         .bench_perft_depth = 6,
                         .bench_search_depth = 10}),
  };
  return games;
}

}  // namespace

std::span<const GameInfo> all_games() { return registry(); }

const GameInfo* find_game(std::string_view name) {
  for (const GameInfo& g : registry())
    if (g.name == name) return &g;
  return nullptr;
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
