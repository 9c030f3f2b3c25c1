#pragma once
// What a served folder holds: game records (finished or being played) and tournament folders.
// Summaries are cached by file modification time and size, so polling the list stays cheap; the
// server answers several requests at once, so the cache is shared under a lock.
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace arena::view {

inline constexpr std::uintmax_t kMaxRecordBytes = 16u << 20;
inline constexpr int kMaxFolderDepth = 6;
inline constexpr std::size_t kMaxListedEntries = 5000;

// Stamp of a file's content as seen by stat(): changes whenever the file is rewritten.
std::string file_version(const std::filesystem::path& file);

// A record's text, bounded in size; throws std::runtime_error with a clear reason.
std::string read_bounded(const std::filesystem::path& file, std::uintmax_t max_bytes);

// A folder is a tournament when it holds standings.json or a journal file.
bool is_tournament_folder(const std::filesystem::path& dir);

class FolderIndex {
 public:
  explicit FolderIndex(std::filesystem::path root) : root_(std::move(root)) {}

  // {"games":[summary...], "tournaments":[...], "truncated":bool}, paths relative to the root.
  // `under` (canonical, inside the root) limits the scan to that folder.
  nlohmann::json list(const std::filesystem::path& under);

  // Summary of one record file: path, game, players, result, plies, live, updated; nullopt when
  // the file is not an arena game record.
  std::optional<nlohmann::json> summary(const std::filesystem::path& file);
  // The name the API uses for a path inside the root: relative, '/'-separated, "" for the root.
  std::string relative_name(const std::filesystem::path& p) const;
  const std::filesystem::path& root() const { return root_; }

 private:
  struct Cached {
    std::string version;
    std::optional<nlohmann::json> summary;
  };
  std::filesystem::path root_;
  std::mutex cache_mutex_;
  std::map<std::filesystem::path, Cached> cache_;

  std::optional<nlohmann::json> read_summary(const std::filesystem::path& file) const;
};

}  // namespace arena::view
