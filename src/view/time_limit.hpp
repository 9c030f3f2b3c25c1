#pragma once
// The time a game allowed per move, read from its record's settings, for the time charts.
#include <nlohmann/json.hpp>

namespace arena::view {

// {"ms": N, "clock": "wall"} from settings.move_time_ms (the referee's clock per move), or
// {"ms": N, "clock": "cpu"} from settings.cpu_per_turn_ms (Paper Soccer: user CPU per turn);
// null when the settings give neither as a positive number.
nlohmann::json move_time_limit(const nlohmann::json& settings);

}  // namespace arena::view
