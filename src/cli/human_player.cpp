#include "cli/human_player.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <istream>
#include <ostream>
#include <stdexcept>

#include "core/text.hpp"

namespace arena {

std::string HumanPlayer::choose(const AnyState& state) {
  const auto legal = state.legal_moves();
  fmt::print(out_, "\n{}\n{} to move (ply {}). Legal moves ({}):\n", state.render(),
             side_name(state.side_to_move()), state.ply() + 1, legal.size());
  std::string row;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    row += fmt::format("{:<8}", legal[i]);
    if (i % 10 == 9 || i + 1 == legal.size()) {
      fmt::print(out_, "  {}\n", row);
      row.clear();
    }
  }
  while (true) {
    fmt::print(out_, "Your move: ");
    out_.flush();
    std::string line;
    if (!std::getline(in_, line))
      throw std::runtime_error("input closed before a move was entered");
    const std::string_view text = trim(line);
    if (text.empty()) continue;
    if (text.size() > 64) {
      fmt::print(out_, "That is too long to be a move. Try again.\n");
      continue;
    }
    auto probe = state.clone();
    const auto played = probe->play(text);
    if (played) return *played.value;
    fmt::print(out_, "Not a legal move: {}. Try again.\n", played.error);
  }
}

}  // namespace arena
