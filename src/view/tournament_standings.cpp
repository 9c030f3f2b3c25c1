#include "view/tournament_standings.hpp"

#include <string>

namespace arena::view {
namespace {

using nlohmann::ordered_json;

// {"wins": 3, "draws": 0, "losses": 1} -> "3-0-1"; anything else as it is.
ordered_json flat(const ordered_json& v) {
  if (!v.is_object()) return v;
  const auto count = [&](const char* key) -> std::string {
    const auto it = v.find(key);
    return it != v.end() && it->is_number_integer() ? it->dump() : "?";
  };
  if (v.contains("wins") && v.contains("draws") && v.contains("losses"))
    return count("wins") + "-" + count("draws") + "-" + count("losses");
  return v.dump();
}

ordered_json standings_rows(const ordered_json& rows) {
  ordered_json out = ordered_json::array();
  for (const auto& row : rows) {
    if (!row.is_object()) continue;
    ordered_json r = ordered_json::object();
    for (const auto& [key, value] : row.items()) r[key] = flat(value);
    out.push_back(std::move(r));
  }
  return out;
}

// One letter for a game ("W", "D", "L"), "." when it was not played.
std::string letter(const ordered_json& cell, const char* key) {
  if (!cell.is_object()) return ".";
  const auto it = cell.find(key);
  return it != cell.end() && it->is_string() && !it->get<std::string>().empty()
             ? it->get<std::string>()
             : ".";
}

ordered_json crosstable_rows(const ordered_json& table) {
  ordered_json out = ordered_json::array();
  const auto names = table.find("participants");
  const auto cells = table.find("cells");
  if (names == table.end() || cells == table.end() || !names->is_array() || !cells->is_array())
    return out;
  const auto name = [&](std::size_t i) {
    const ordered_json& n = (*names)[i];
    return n.is_string() ? n.get<std::string>() : n.dump();
  };
  for (std::size_t i = 0; i < names->size() && i < cells->size(); ++i) {
    const ordered_json& line = (*cells)[i];
    if (!line.is_array()) continue;
    ordered_json r = ordered_json::object();
    r["name"] = name(i);
    for (std::size_t j = 0; j < names->size(); ++j) {
      const std::string opponent = name(j);
      if (i == j || opponent == "name") continue;
      r[opponent] =
          j < line.size() ? letter(line[j], "as_white") + letter(line[j], "as_black") : "..";
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

ordered_json standings_from_results(const ordered_json& results) {
  ordered_json out = ordered_json::object();
  if (!results.is_object()) return out;
  for (const char* key : {"game", "games_played", "games_total", "complete"})
    if (const auto it = results.find(key); it != results.end() && !it->is_structured())
      out[key] = *it;
  if (const auto it = results.find("standings"); it != results.end() && it->is_array())
    out["standings"] = standings_rows(*it);
  if (const auto it = results.find("crosstable"); it != results.end() && it->is_object())
    out["crosstable"] = crosstable_rows(*it);
  return out;
}

}  // namespace arena::view
