#pragma once
// Nine Men's Morris positions described for the viewers (docs/viewer.md, kind "morris"): the 24
// points, the pieces in hand and the stage of the side to move.
#include <nlohmann/json.hpp>

#include "games/morris/state.hpp"

namespace arena::morris {

nlohmann::json view(const State& s);

}  // namespace arena::morris
