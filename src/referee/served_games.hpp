#pragma once
// What the two course servers (the text-line one and the Morris one) share: the event loop, the
// run folder and the records written in it, the requests to stop (stop(), SIGINT, SIGTERM), the
// connections still delivering their last messages after a game, and the step from a finished
// game to the next one or to the end. A server derives from it and says how a game starts, how
// one in progress is aborted and how it stops listening.
#include <asio.hpp>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "referee/queued_connection.hpp"
#include "referee/record.hpp"
#include "referee/stop_requests.hpp"

namespace arena {

class ServedGames {
 public:
  ServedGames(const ServedGames&) = delete;
  ServedGames& operator=(const ServedGames&) = delete;

  // Ends the serving soon: a game in progress is recorded as aborted. Safe from any thread.
  void stop() { stops_.request(); }
  // Where each finished game's JSON record was written, in order.
  std::vector<std::filesystem::path> record_paths() const { return record_paths_; }
  std::filesystem::path run_directory() const { return run_dir_; }

 protected:
  ServedGames(std::ostream& out, int games);
  virtual ~ServedGames() = default;

  void open_run_directory(const std::filesystem::path& records_dir, std::string_view game);
  // Starts the first game, then serves until the last is over or a stop.
  void serve(bool handle_signals);
  // The record so far, for viewers following the game live; a failure is only reported.
  void save_live_record(const std::string& file_name, const GameRecord& record);
  // Ends the game being played: its result, record and log saved in the run folder, its
  // connections closed once they have delivered what they hold; then, once the callers up the
  // stack are done with the seats, the next game or the end.
  void game_over(GameRecord& record, Outcome outcome, std::string reason, std::string detail,
                 const std::string& record_file, const std::string& log_file,
                 const std::string& log_text);
  void close_when_delivered(std::shared_ptr<QueuedConnection> connection);
  void shutdown();
  bool stopping() const { return stopping_; }
  int games_done() const { return games_done_; }

  asio::io_context io_;
  std::ostream& out_;

 private:
  virtual void start_game() = 0;
  virtual void abort_game(const std::string& why) = 0;
  // Closes the listeners, cancels the timers and hands the seated connections to
  // close_when_delivered().
  virtual void stop_serving() = 0;

  int games_;
  LingeringConnections lingering_;
  StopRequests stops_;
  std::filesystem::path run_dir_;
  std::vector<std::filesystem::path> record_paths_;
  bool stopping_ = false;
  int games_done_ = 0;
};

}  // namespace arena
