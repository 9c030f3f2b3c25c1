#include "games/soccer/view.hpp"

#include <fmt/format.h>

namespace arena::soccer {
namespace {

nlohmann::json point_json(int p) {
  return nlohmann::json::array({x_of(p), y_of(p)});
}

}  // namespace

nlohmann::json view(const State& s, std::span<const PlayedTurn> turns) {
  nlohmann::json path = nlohmann::json::array();
  for (const PlayedTurn& t : turns) {
    nlohmann::json points = nlohmann::json::array();
    int p = t.from;
    points.push_back(point_json(p));
    for (const std::uint8_t d : t.steps) {
      p += kDirectionDelta[d & 7];
      points.push_back(point_json(p));
    }
    path.push_back({{"side", side_key(t.side)}, {"points", std::move(points)}});
  }
  const int ball = s.ball();
  return {
      {"kind", "soccer"},
      {"xMin", -4},
      {"xMax", 4},
      {"yMin", -5},
      {"yMax", 5},
      {"goalWidth", 1},
      {"ball", point_json(ball)},
      {"attacks", {{"white", "north"}, {"black", "south"}}},
      {"toMove", side_key(s.side_to_move())},
      {"turns", std::move(path)},
      {"caption", fmt::format("Ball at ({}, {}) after {} turns, {} steps", x_of(ball), y_of(ball),
                              s.ply(), s.steps())},
  };
}

}  // namespace arena::soccer
