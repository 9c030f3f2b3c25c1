#include "view/folder_index.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <system_error>

#include "referee/record.hpp"

namespace arena::view {
namespace fs = std::filesystem;

std::string file_version(const fs::path& file) {
  std::error_code ec;
  const auto time = fs::last_write_time(file, ec);
  const auto size = fs::file_size(file, ec);
  if (ec) return {};
  return fmt::format("{}-{}", time.time_since_epoch().count(), size);
}

std::string read_bounded(const fs::path& file, std::uintmax_t max_bytes) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) throw std::runtime_error("cannot read the file");
  if (size > max_bytes)
    throw std::runtime_error(fmt::format("the file is larger than {} bytes", max_bytes));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open the file");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

bool is_tournament_folder(const fs::path& dir) {
  std::error_code ec;
  for (const auto* name :
       {"standings.json", "results.json", "journal.jsonl", "journal.json", "journal.txt"})
    if (fs::is_regular_file(dir / name, ec)) return true;
  return false;
}

std::string FolderIndex::relative_name(const fs::path& p) const {
  if (p == root_) return {};
  return p.lexically_relative(root_).generic_string();
}

std::optional<nlohmann::json> FolderIndex::read_summary(const fs::path& file) const {
  try {
    const auto j = nlohmann::json::parse(read_bounded(file, kMaxRecordBytes));
    const GameRecord r = record_from_json(j);
    const bool live = r.outcome == Outcome::Ongoing && r.reason == kInProgressReason;
    return nlohmann::json{
        {"path", relative_name(file)},
        {"game", r.game},
        {"white", r.white.name},
        {"black", r.black.name},
        {"winner", outcome_key(r.outcome)},
        {"reason", r.reason},
        {"plies", r.moves.size()},
        {"live", live},
        {"started_at", r.started_at},
    };
  } catch (const std::exception&) {
    return std::nullopt;  // not a record (standings, settings, a half-written foreign file)
  }
}

std::optional<nlohmann::json> FolderIndex::summary(const fs::path& file) {
  const std::string version = file_version(file);
  if (version.empty()) return std::nullopt;
  {
    const std::lock_guard lock(cache_mutex_);
    if (const auto it = cache_.find(file); it != cache_.end() && it->second.version == version)
      return it->second.summary;
  }
  // Read without the lock: other requests go on meanwhile.
  auto s = read_summary(file);
  const std::lock_guard lock(cache_mutex_);
  if (cache_.size() > 4 * kMaxListedEntries) cache_.clear();  // files come and go: keep it bounded
  cache_[file] = {version, s};
  return s;
}

nlohmann::json FolderIndex::list(const fs::path& under) {
  nlohmann::json games = nlohmann::json::array(), tournaments = nlohmann::json::array();
  bool truncated = false;
  std::size_t seen = 0;
  std::error_code ec;
  if (is_tournament_folder(under)) tournaments.push_back({{"path", relative_name(under)}});
  fs::recursive_directory_iterator it(under, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (++seen > kMaxListedEntries) {
      truncated = true;
      break;
    }
    const fs::directory_entry& e = *it;
    std::error_code ec2;
    // Symlinks are not followed: everything listed lies inside the folder.
    if (e.is_symlink(ec2)) continue;
    if (e.is_directory(ec2)) {
      if (it.depth() + 1 >= kMaxFolderDepth) it.disable_recursion_pending();
      if (is_tournament_folder(e.path()))
        tournaments.push_back({{"path", relative_name(e.path())}});
      continue;
    }
    const fs::path& p = e.path();
    if (p.extension() != ".json" || p.filename() == "standings.json" ||
        p.filename() == "results.json" || !e.is_regular_file(ec2))
      continue;
    if (auto s = summary(p)) {
      const auto age = fs::file_time_type::clock::now() - e.last_write_time(ec2);
      (*s)["updated_s_ago"] = std::chrono::duration_cast<std::chrono::seconds>(age).count();
      games.push_back(std::move(*s));
    }
  }
  // Newest first: live games and recent runs at the top.
  std::sort(games.begin(), games.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    if (a["live"] != b["live"]) return a["live"].get<bool>();
    return a["path"].get<std::string>() > b["path"].get<std::string>();
  });
  return {{"games", std::move(games)},
          {"tournaments", std::move(tournaments)},
          {"truncated", truncated}};
}

}  // namespace arena::view
