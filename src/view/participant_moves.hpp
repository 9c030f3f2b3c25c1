#pragma once
// The moves one tournament participant made, game by game, for its page's time-per-move chart
// (GET /api/participant, docs/viewer.md). Read from the records under the tournament's folder,
// whose players carry the participants' names.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "view/folder_index.hpp"

namespace arena::view {

inline constexpr std::size_t kMaxParticipantName = 100;

// {"name", "games": [{"path", "side", "opponent", "limit", "time_ms": [...], "cpu_ms": [...]}],
// "truncated"}: every record under `dir` (canonical, inside the index's root) that `name` played,
// in the listing's order; per game its moves' times in order, "cpu_ms" only when the record
// has it (null for a move without), "limit" as move_time_limit(). Records that cannot be read
// are left out.
nlohmann::json participant_moves(FolderIndex& index, const std::filesystem::path& dir,
                                 const std::string& name);

}  // namespace arena::view
