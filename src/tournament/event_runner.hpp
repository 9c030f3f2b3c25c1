#pragma once
// Runs an event: the schedule's missing games on a pool of workers, each game journaled as soon
// as it ends, a progress line, and the reports once every game is in.
#include <filesystem>
#include <iosfwd>

#include "tournament/event.hpp"

namespace arena::tournament {

struct RunOptions {
  int concurrency = 0;                 // games at once; 0: as many as the cores allow
  bool quiet = false;                  // no line per finished game
  std::filesystem::path arena_binary;  // runs the built-in agents
};

// Starts a new event in dir (which must not hold one). Gives the process exit code: 0 when every
// game was played, 1 when the event stopped on an error of arena's own (resumable).
int start_event(const std::filesystem::path& dir, EventSettings settings, const RunOptions& options,
                std::ostream& out, std::ostream& progress);
// Plays the games missing from dir's journal, with the settings stored there.
int resume_event(const std::filesystem::path& dir, const RunOptions& options, std::ostream& out,
                 std::ostream& progress);

}  // namespace arena::tournament
