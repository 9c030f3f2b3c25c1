#pragma once
// The grading games of `arena handin grade`: for Paper Soccer the Bucharest course's scheme (the
// reference bot at difficulties 0, 1 and 2, the hand-in as player 1 and as player 2, seed 42 for
// both bots, a win worth 10, 15 or 20 points: 90 in all), and for every game arena's engine at
// chosen levels in both colours. Every game is a full game through the game's tournament runner,
// sandboxed, one at a time. See docs/handin.md.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cli/handin_smoke.hpp"
#include "core/parse_result.hpp"

namespace arena::cli {

inline constexpr int kMaxEngineLevel = 5;
inline constexpr std::uint64_t kBucharestSeed = 42;
inline constexpr int kBucharestMaxPoints = 90;

// "1-5", "3", "1,3,5" or "1-2,4": the levels, sorted and each once, all within 1..5.
Parsed<std::vector<int>> parse_levels(std::string_view text);

struct GradePlan {
  bool bucharest = false;   // Paper Soccer only
  std::vector<int> levels;  // engine levels, each played in both colours
};

struct GradedGame {
  std::string opponent;  // "reference difficulty 0", "engine level=3"
  int level = -1;        // the difficulty or the engine level
  bool bucharest = false;
  int worth = 0;   // Bucharest: what a win gives
  int points = 0;  // Bucharest: what it gave
  SmokeGame game;
  // "engine level=3, as Black: won (goal), 41 plies, CPU 0.30 s" (+ " +15" for Bucharest).
  std::string line() const;
};

struct LevelRow {
  int level = 0;
  std::string white, black;  // "won", "lost" or "draw"
  bool beaten_or_drawn() const { return white != "lost" && black != "lost"; }
};

struct Grade {
  bool bucharest = false;
  std::string first_seat, second_seat;  // "White", or "player 1" in Paper Soccer
  std::vector<GradedGame> games;
  int points = 0;
  std::vector<LevelRow> levels;
  int highest_level = 0;  // the highest level won or drawn in both colours; 0: none
  // "points 75/90; beats or draws up to level 3", "beats or draws no level".
  std::string summary() const;
  // The tables as printed: the Bucharest games (Paper Soccer), then the levels.
  std::string table() const;
  nlohmann::json to_json() const;
};

// Plays the plan's games one at a time into options.dir; `on_game` hears of each as it ends.
Grade grade_handin(const GameInfo& game, const SmokeOptions& options, const GradePlan& plan,
                   const std::function<void(const GradedGame&)>& on_game);

}  // namespace arena::cli
