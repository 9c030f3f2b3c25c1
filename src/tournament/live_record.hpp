#pragma once
// Keeps a tournament game's record at <stem>.json live while the game is played: the referee
// writes its own live record in a work folder (with its own player names); a thread copies it,
// with the participants' names, to where viewers (`arena web`) follow the event's games.
#include <atomic>
#include <filesystem>
#include <string>
#include <thread>

#include "referee/record.hpp"
#include "tournament/match_runner.hpp"

namespace arena::tournament {

// The record's players get the participants' names, and what ran them (with the address the
// referee recorded, if any).
void name_players(const MatchRequest& request, GameRecord& record);

class LiveRecordMirror {
 public:
  // Follows the newest in-progress record under `work_dir` until stopped.
  LiveRecordMirror(const MatchRequest& request, std::filesystem::path work_dir);
  ~LiveRecordMirror();
  LiveRecordMirror(const LiveRecordMirror&) = delete;
  LiveRecordMirror& operator=(const LiveRecordMirror&) = delete;
  // Stops following (before the final record is written).
  void stop();

 private:
  const MatchRequest& request_;
  const std::filesystem::path work_dir_;
  const std::filesystem::path target_;
  std::atomic<bool> stop_{false};
  std::string last_version_;
  std::thread thread_;

  void follow();
  void copy_once();
};

}  // namespace arena::tournament
