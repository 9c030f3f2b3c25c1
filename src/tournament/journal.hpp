#pragma once
// The event's journal, DIR/journal.jsonl: one JSON object per line, appended and fsync'ed as each
// game finishes, so a killed event (even kill -9, or a power cut) loses no finished game. The
// first line holds the settings, so resuming needs only the directory. A last line cut short by a
// kill is ignored (and removed when the journal is reopened).
#include <filesystem>
#include <mutex>
#include <vector>

#include "tournament/event.hpp"

namespace arena::tournament {

inline constexpr const char* kJournalFile = "journal.jsonl";

class Journal {
 public:
  // Starts a new journal in `dir` (created if needed); throws if one is there already.
  static Journal create(const std::filesystem::path& dir, const EventSettings& settings);
  // Reopens an existing journal for appending; fills the settings and the finished games.
  // Throws std::runtime_error naming the line when the journal is damaged other than at its end.
  static Journal open(const std::filesystem::path& dir, EventSettings& settings,
                      std::vector<GameResult>& finished);

  Journal(Journal&& other) noexcept;
  Journal& operator=(Journal&&) = delete;
  Journal(const Journal&) = delete;
  ~Journal();

  // Appends one finished game and makes it durable before returning. Thread-safe.
  void append(const GameResult& result);

 private:
  explicit Journal(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::filesystem::path path_;
  std::mutex mutex_;
  void write_line(const std::string& line);
};

}  // namespace arena::tournament
