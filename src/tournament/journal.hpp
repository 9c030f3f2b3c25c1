#pragma once
// The event's journals: one JSON object per line, appended and fsync'ed as each game finishes,
// so a killed event (even kill -9, or a power cut) loses no finished game. A last line cut short
// by a kill is ignored (and removed when its writer reopens the journal).
//
// DIR/journal.jsonl is the event's own: its first line holds the settings, so playing or
// resuming needs only the folder. Each shard of an event played in parts (tournament/shard.hpp)
// appends to its own DIR/shards/K-of-N.jsonl instead, so no two machines write the same file.
// The event's results are the games of all its journals.
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "tournament/event.hpp"
#include "tournament/shard.hpp"

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
  // Opens shard s's journal for appending, creating it if needed. Throws when another process
  // has it open for playing (the same shard started twice).
  static Journal open_shard(const std::filesystem::path& dir, Shard s);

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

// Everything an event's folder records, read without writing anything.
struct EventJournals {
  EventSettings settings;
  // Every finished game once, by schedule index (a game in two journals, which only happens
  // when shards of different counts played at once, is counted from the first journal).
  std::vector<GameResult> games;
  std::map<std::string, int> games_per_journal;  // file (relative to DIR) -> games in it
  std::vector<Shard> shard_journals;             // the shards that have a journal
  int duplicates = 0;                            // games found in more than one journal
};
// Throws std::runtime_error naming the file and line when a journal is damaged.
EventJournals read_event_journals(const std::filesystem::path& dir);

}  // namespace arena::tournament
