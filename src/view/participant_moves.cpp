#include "view/participant_moves.hpp"

#include "referee/record.hpp"
#include "view/time_limit.hpp"

namespace arena::view {
namespace fs = std::filesystem;

namespace {

nlohmann::json side_moves(const GameRecord& r, Side side, const std::string& path) {
  nlohmann::json times = nlohmann::json::array(), cpu = nlohmann::json::array();
  bool any_cpu = false;
  for (const MoveRecord& m : r.moves) {
    if (m.side != side) continue;
    times.push_back(m.time_ms);
    cpu.push_back(m.cpu_ms ? nlohmann::json(*m.cpu_ms) : nlohmann::json(nullptr));
    any_cpu = any_cpu || m.cpu_ms.has_value();
  }
  nlohmann::json out = {{"path", path},
                        {"side", side_key(side)},
                        {"opponent", side == Side::White ? r.black.name : r.white.name},
                        {"limit", move_time_limit(r.settings)},
                        {"time_ms", std::move(times)}};
  if (any_cpu) out["cpu_ms"] = std::move(cpu);
  return out;
}

}  // namespace

nlohmann::json participant_moves(FolderIndex& index, const fs::path& dir, const std::string& name) {
  const nlohmann::json listing = index.list(dir);
  nlohmann::json games = nlohmann::json::array();
  for (const auto& summary : listing["games"]) {
    const bool white = summary["white"] == name, black = summary["black"] == name;
    if (!white && !black) continue;
    const std::string path = summary["path"];
    try {
      GameRecord r = record_from_json(
          nlohmann::json::parse(read_bounded(index.root() / path, kMaxRecordBytes)));
      if (white && r.white.name == name) games.push_back(side_moves(r, Side::White, path));
      if (black && r.black.name == name) games.push_back(side_moves(r, Side::Black, path));
    } catch (const std::exception&) {
      // Rewritten or removed since it was listed: shown on the next look.
    }
  }
  return {{"name", name}, {"games", std::move(games)}, {"truncated", listing["truncated"]}};
}

}  // namespace arena::view
