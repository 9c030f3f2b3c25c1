#pragma once
// Runs an event: the schedule's missing games on a pool of workers, each game journaled as soon
// as it ends, a progress line, and the reports once every game is in.
#include <filesystem>
#include <iosfwd>
#include <optional>

#include "tournament/event.hpp"
#include "tournament/shard.hpp"

namespace arena::tournament {

struct RunOptions {
  int concurrency = 0;                 // games at once; 0: as many as the cores allow
  bool quiet = false;                  // no line per finished game
  std::filesystem::path arena_binary;  // runs the built-in agents
  std::optional<Shard> shard;          // play only this shard's games, into its own journal
};

// Called by a stop signal's handler before it kills the agents: games that end from then on
// (their agents killed by the stop) are not results and are not journaled.
void request_stop();

// Writes a new event folder (the journal with the settings, schedule.csv and the empty
// standings) and plays nothing. Throws std::runtime_error on invalid settings.
void plan_event(const std::filesystem::path& dir, EventSettings settings, std::ostream& out);
// Plays the games of dir's event (or of options.shard) that no journal holds yet. Without a
// shard, writes the reports at the end; a shard writes them when it finds every game played.
int play_event(const std::filesystem::path& dir, const RunOptions& options, std::ostream& out,
               std::ostream& progress);
// The standings step: reads every journal of dir and writes the standings files.
int report_event(const std::filesystem::path& dir, std::ostream& out);

// Starts a new event in dir (which must not hold one). Gives the process exit code: 0 when every
// game was played, 1 when the event stopped on an error of arena's own (resumable).
int start_event(const std::filesystem::path& dir, EventSettings settings, const RunOptions& options,
                std::ostream& out, std::ostream& progress);
// Plays the games missing from dir's journal, with the settings stored there.
int resume_event(const std::filesystem::path& dir, const RunOptions& options, std::ostream& out,
                 std::ostream& progress);

}  // namespace arena::tournament
