#include "games/morris/view.hpp"

#include <fmt/format.h>

#include <string>

namespace arena::morris {
namespace {

constexpr const char* kStageKeys[] = {"placing", "moving", "flying"};
constexpr const char* kStageTitles[] = {"Placing", "Moving", "Flying"};

}  // namespace

nlohmann::json view(const State& s) {
  nlohmann::json points = nlohmann::json::object();
  for (int p = 0; p < kPoints; ++p) {
    const Points b = point_bit(p);
    points[std::string(kPointNames[static_cast<std::size_t>(p)])] =
        (s.points(Side::White) & b)   ? "W"
        : (s.points(Side::Black) & b) ? "B"
                                      : "";
  }
  // The stage is the side to move's: one side may fly while the other still slides.
  const int stage = static_cast<int>(s.stage(s.side_to_move()));
  const int white_hand = s.in_hand(Side::White), black_hand = s.in_hand(Side::Black);
  const std::string caption =
      white_hand > 0 || black_hand > 0
          ? fmt::format("{}: White {} in hand, Black {}", kStageTitles[stage], white_hand,
                        black_hand)
          : fmt::format("{}: White {} on the board, Black {}", kStageTitles[stage],
                        s.on_board(Side::White), s.on_board(Side::Black));
  return {
      {"kind", "morris"},
      {"points", std::move(points)},
      {"inHand", {{"white", white_hand}, {"black", black_hand}}},
      {"phase", kStageKeys[stage]},
      {"toMove", side_key(s.side_to_move())},
      {"caption", caption},
  };
}

}  // namespace arena::morris
