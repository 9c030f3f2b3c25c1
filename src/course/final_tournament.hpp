#pragma once
// The final tournament, run from the course server: staff pick a cut-off time; the last accepted
// (not excluded) version of each student handed in before it plays the courses' double
// round-robin (3/1/0, both colours) with arena's tournament machinery, as its own process
// (`arena tournament plan | play | report --html`), on this machine or in shards on a cluster.
// The report is served at /final/ and downloadable as one .tar.gz. A server stopped while it
// runs takes it up again at its next start: the tournament resumes where its journal ends.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "course/ladder.hpp"
#include "course/store.hpp"

namespace arena::course {

struct FinalOptions {
  std::filesystem::path arena_binary;
  std::filesystem::path course_dir;
  std::string game;
  int move_time_ms = 0;    // 0: the game's course limit
  std::string check_args;  // the server's options for checks, for the builds made here
};

struct FinalEntrant {
  std::string login, name;
  std::int64_t submission = 0;
};

struct FinalRequest {
  std::string cutoff;  // UTC, ISO 8601
  bool pause_ladder = true;
  int shards = 0;  // >0: planned for a cluster (arena tournament slurm), played there
  int move_time_ms = 0;
};

struct FinalState {
  std::string state = "none";  // none, running, done, failed
  std::string cutoff, ladder, error, next;
  int shards = 0;
  std::vector<FinalEntrant> entrants;
  int played = 0, total = 0;
};

class FinalTournament {
 public:
  FinalTournament(Store& store, Ladder& ladder, FinalOptions options);
  ~FinalTournament();  // stops a run under way (taken up again at the next start)
  FinalTournament(const FinalTournament&) = delete;
  FinalTournament& operator=(const FinalTournament&) = delete;

  // Starts it. Throws std::invalid_argument (fewer than two entrants) or std::logic_error (one
  // is running already, or hand-ins before the cut-off are still being checked).
  FinalState begin(const FinalRequest& request, const std::string& by);
  FinalState state();
  bool done() { return store_.setting("final_state").value_or("none") == "done"; }
  // At the server's start: a final that was running goes on.
  void resume();
  // Stops a final that runs (its games so far are kept in DIR/final/event); false when none runs.
  bool cancel(const std::string& by);

  std::filesystem::path report_dir() const { return dir() / "report"; }
  std::filesystem::path download_file() const { return dir() / "final-report.tar.gz"; }

 private:
  Store& store_;
  Ladder& ladder_;
  FinalOptions options_;
  std::mutex mutex_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};

  std::filesystem::path dir() const { return options_.course_dir / "final"; }
  std::filesystem::path event_dir() const { return dir() / "event"; }
  void run(int shards, int move_time_ms);
  bool run_step(const std::string& command, const std::string& what);
  // participants.txt, each entrant's build made here first where the server has none.
  bool write_participants();
  bool build_entrant(const FinalEntrant& entrant);
  int games_played() const;
  void fail(const std::string& why);
};

}  // namespace arena::course
