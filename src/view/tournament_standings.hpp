#pragma once
// The standings the web viewer shows for a tournament folder, from what `arena tournament`
// writes at the end of an event (results.json, docs/tournament.md): the page draws every list of
// objects as a table, so the nested parts of results.json are flattened into such lists here.
#include <nlohmann/json.hpp>

namespace arena::view {

// {"game", "games_played", "games_total", "complete", "standings": [rows], "crosstable":
// [rows]}: each standings row as in results.json with its W/D/L objects as "wins-draws-losses"
// text; each crosstable row {"name", <opponent>: "WL", ...} (the row's result with White, then
// with Black; "." a game not played). Parts missing from `results` are left out; never throws.
nlohmann::ordered_json standings_from_results(const nlohmann::ordered_json& results);

}  // namespace arena::view
