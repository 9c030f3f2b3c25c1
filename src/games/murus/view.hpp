#pragma once
// Murus Gallicus positions described for the viewers (docs/viewer.md, kind "grid"): 7 rows A..G,
// 8 columns, a wall one stone ("W"/"B"), a tower two ("WW"/"BB").
#include <nlohmann/json.hpp>

#include "games/murus/state.hpp"

namespace arena::murus {

nlohmann::json view(const State& s);

}  // namespace arena::murus
