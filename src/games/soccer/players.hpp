#pragma once
// Paper Soccer players behind the type-erased Player face (arena play): each answers a whole
// turn as text "N d1 .. dN".
#include <iosfwd>
#include <memory>

#include "search/player.hpp"

namespace arena::soccer {

// engine (with a move time the Monte-Carlo tree search of mcts.hpp; with --depth in turns or a
// node limit the shared alpha-beta search), greedy (one turn deep: the best
// reach this turn by the evaluation) and random (a random walk of free steps).
std::unique_ptr<Player> make_player(const PlayerSpec& spec);

// A person at the terminal, one step at a time: the field and the free directions are shown
// after every bounce; several directions can be typed at once ("0 1 7").
std::unique_ptr<Player> make_human(std::istream& in, std::ostream& out);

}  // namespace arena::soccer
