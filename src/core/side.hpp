#pragma once
// The two sides of a two-player game and the outcome of a game.
#include <cstdint>
#include <string_view>

namespace arena {

enum class Side : std::uint8_t { White = 0, Black = 1 };

constexpr Side opposite(Side s) { return s == Side::White ? Side::Black : Side::White; }
constexpr int index(Side s) { return static_cast<int>(s); }
constexpr std::string_view side_name(Side s) { return s == Side::White ? "White" : "Black"; }
constexpr std::string_view side_key(Side s) { return s == Side::White ? "white" : "black"; }

enum class Outcome : std::uint8_t { Ongoing, WhiteWins, BlackWins, Draw };

constexpr Outcome win_for(Side s) { return s == Side::White ? Outcome::WhiteWins : Outcome::BlackWins; }

// Short machine-readable outcome name used in records ("white", "black", "draw", "ongoing").
constexpr std::string_view outcome_key(Outcome o) {
  switch (o) {
    case Outcome::WhiteWins: return "white";
    case Outcome::BlackWins: return "black";
    case Outcome::Draw: return "draw";
    case Outcome::Ongoing: break;
  }
  return "ongoing";
}

// How a game ended. `reason` is a stable kebab-case code (records and tools match on it);
// `detail` is a sentence for people. Both point to static strings, so a Result is cheap to copy.
struct Result {
  Outcome outcome = Outcome::Ongoing;
  std::string_view reason;
  std::string_view detail;

  constexpr bool over() const { return outcome != Outcome::Ongoing; }
};

}  // namespace arena
