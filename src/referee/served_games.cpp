#include "referee/served_games.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>

#include "referee/run_directory.hpp"

namespace arena {
namespace {

// How long a finished game's connections may take to receive their last messages.
constexpr auto kCloseGrace = std::chrono::seconds(2);

}  // namespace

ServedGames::ServedGames(std::ostream& out, int games)
    : out_(out), games_(games), lingering_(io_), stops_(io_, out_, [this] {
        abort_game("the server was stopped");
        shutdown();
      }) {}

void ServedGames::open_run_directory(const std::filesystem::path& records_dir,
                                     std::string_view game) {
  run_dir_ = make_run_directory(records_dir, game);
}

void ServedGames::serve(bool handle_signals) {
  start_game();
  if (handle_signals) stops_.watch_signals();
  io_.run();
}

void ServedGames::save_live_record(const std::string& file_name, const GameRecord& record) {
  const std::string error = write_live_record(run_dir_ / file_name, record);
  if (!error.empty()) fmt::print(out_, "warning: could not update the live record: {}\n", error);
}

void ServedGames::game_over(GameRecord& record, Outcome outcome, std::string reason,
                            std::string detail, const std::string& record_file,
                            const std::string& log_file, const std::string& log_text) {
  record.outcome = outcome;
  record.reason = std::move(reason);
  record.detail = std::move(detail);
  record.ended_at = utc_now_iso8601();
  const auto json_path = run_dir_ / record_file;
  if (save_finished_game(record, json_path, run_dir_ / log_file, log_text, out_))
    record_paths_.push_back(json_path);
  ++games_done_;
  if (games_done_ >= games_)
    asio::post(io_, [this] { shutdown(); });
  else
    asio::post(io_, [this] { start_game(); });
}

void ServedGames::close_when_delivered(std::shared_ptr<QueuedConnection> connection) {
  if (connection) lingering_.add(std::move(connection));
}

void ServedGames::shutdown() {
  if (stopping_) return;
  stopping_ = true;
  stop_serving();
  stops_.cancel();
  lingering_.close_all(kCloseGrace);
}

}  // namespace arena
