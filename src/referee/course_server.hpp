#pragma once
// The Calabria course server (Fission 2021/22, Murus Gallicus 2020/21) over TCP: the first client
// to connect plays White, the second Black; one game at a time, as many games as asked.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rules.hpp"
#include "games/registry.hpp"
#include "referee/cpu_clock.hpp"

namespace arena {

struct CourseServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8901;  // 0: any free port
  int move_time_ms = 1000;
  int warmup_ms = 30000;
  int games = 1;
  RuleOptions rules;
  std::filesystem::path records_dir = "records";
  bool show_board = false;
  // Called (on the server's thread) when a client takes a seat (true) or leaves it before the
  // game starts (false). A tournament uses it to start the Black agent only once White is in.
  std::function<void(Side, bool seated)> on_seat;
  // The CPU time each side's agent has used so far (a tournament's sandbox measures it); each
  // move's cpu_ms in the record is its difference over the turn. Null: not recorded.
  CpuClock cpu_clock;
  // >0: a game is stopped after this many plies, a draw ("ply-limit"; a hand-in's smoke game).
  int max_plies = 0;
};

class CourseServer {
 public:
  CourseServer(const GameInfo& game, CourseServerOptions options, std::ostream& out);
  ~CourseServer();
  CourseServer(const CourseServer&) = delete;
  CourseServer& operator=(const CourseServer&) = delete;

  // Binds and listens; throws std::runtime_error with the reason when it cannot. Gives the port.
  std::uint16_t listen();
  // Serves the games, then returns. Call listen() first. With handle_signals, SIGINT/SIGTERM
  // abort a game in progress (recorded as aborted) and stop the server.
  void run(bool handle_signals = false);
  // Ends run() soon; safe from any thread.
  void stop();

  // Where each finished game's JSON record was written, in order.
  std::vector<std::filesystem::path> record_paths() const;
  std::filesystem::path run_directory() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena
