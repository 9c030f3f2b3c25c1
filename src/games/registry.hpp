#pragma once
// Every game arena knows, behind one type-erased face. Adding a game adds one entry here.
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/any_game.hpp"
#include "core/rules.hpp"
#include "search/player.hpp"

namespace arena {

// How the course's line-protocol server printed positions in its per-game log.
struct CourseLogStyle {
  std::string (*board)(const AnyState&);
  std::string (*counts)(const AnyState&);
};

struct SearchBench {
  std::uint64_t nodes = 0;
  std::chrono::milliseconds elapsed{0};
  int depth = 0;
};

struct GameInfo {
  std::string_view name;   // command-line name: "fission"
  std::string_view title;  // "Fission"
  std::string_view move_example;
  int default_move_time_ms = 1000;
  int default_moves_per_player = 0;  // 0: no move limit
  // What the course's own server did at the move limit; `arena connect` assumes it by default.
  LimitRule course_limit_rule = LimitRule::Draw;
  int bench_perft_depth = 5;  // `arena bench`: a perft of about a second
  int bench_search_depth = 9;
  std::unique_ptr<AnyState> (*start)(const RuleOptions&) = nullptr;
  std::unique_ptr<Player> (*make_player)(const PlayerSpec&) = nullptr;
  std::uint64_t (*perft)(const AnyState&, int depth) = nullptr;
  SearchBench (*bench_search)(const AnyState&, int depth) = nullptr;
  const CourseLogStyle* course_log = nullptr;  // set for games served by the line-protocol server
  // A position described for drawing (docs/viewer.md: "kind" grid, morris, soccer); the terminal
  // replay and the web viewer draw from it. Unset: viewers show render() as text.
  nlohmann::json (*view)(const AnyState&) = nullptr;
  // A game-specific terminal player (unset: the generic one that lists the legal moves).
  std::unique_ptr<Player> (*make_human)(std::istream&, std::ostream&) = nullptr;
};

std::span<const GameInfo> all_games();
const GameInfo* find_game(std::string_view name);
std::string game_names();  // "fission" (comma-separated), for help and errors
// Why `rules` do not fit `game` (a move limit's options for a game that has none), or "".
std::string rules_error(const GameInfo& game, const RuleOptions& rules);

}  // namespace arena
