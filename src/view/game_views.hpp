#pragma once
// A game record replayed through the rules: the position after every ply, described for drawing
// (docs/viewer.md). The terminal replay and the web viewer both draw from this.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/any_game.hpp"
#include "referee/record.hpp"

namespace arena::view {

struct GameViews {
  std::vector<nlohmann::json> positions;  // [0] the start, [i] after ply i
  std::string error;  // set when a move could not be replayed (positions stop before it)
};

// The view of a position: the game's own view hook, or {"kind":"text"} with render().
nlohmann::json describe(const AnyState& s);

// Replays the record's moves from the start position of its game and settings.
GameViews replay_views(const GameRecord& record);

// The record as JSON with "views" added (what /api/record serves).
nlohmann::json record_with_views(const GameRecord& record);

}  // namespace arena::view
