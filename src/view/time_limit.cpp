#include "view/time_limit.hpp"

#include <array>
#include <cstdint>
#include <utility>

namespace arena::view {

nlohmann::json move_time_limit(const nlohmann::json& settings) {
  if (!settings.is_object()) return nullptr;
  constexpr std::array<std::pair<const char*, const char*>, 2> kLimits = {
      {{"move_time_ms", "wall"}, {"cpu_per_turn_ms", "cpu"}}};
  for (const auto& [key, clock] : kLimits) {
    const auto it = settings.find(key);
    if (it != settings.end() && it->is_number_integer() && it->get<std::int64_t>() > 0)
      return {{"ms", it->get<std::int64_t>()}, {"clock", clock}};
  }
  return nullptr;
}

}  // namespace arena::view
