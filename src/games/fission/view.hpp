#pragma once
// Fission positions described for the viewers (docs/viewer.md, kind "grid").
#include <nlohmann/json.hpp>

#include "games/fission/state.hpp"

namespace arena::fission {

nlohmann::json view(const State& s);

}  // namespace arena::fission
