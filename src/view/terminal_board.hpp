#pragma once
// Draws a position's view (docs/viewer.md) as Unicode text for a terminal, with ANSI colour
// when asked. Every kind the web page draws is drawn here too: grid, morris, soccer, text.
#include <nlohmann/json.hpp>
#include <string>

namespace arena::view {

// The board as lines ending in '\n'. `previous` (the position one ply earlier, or null) marks
// what changed, when colour is on.
std::string draw_terminal(const nlohmann::json& view, const nlohmann::json* previous, bool color);

}  // namespace arena::view
