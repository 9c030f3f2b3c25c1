#pragma once
// The Bologna course's Morris server (Mulino 2016/17) over TCP, speaking Java object
// serialization: White connects to one port, Black to another; the whole State goes to both
// players after every ply; each player answers with an Action. Judged by arena's rules (a blocked
// player loses, a repeated position draws, a win ends the game in any phase). The protocol has no
// result message: at the end the server closes both connections, prints the result and writes the
// JSON record and the course-style log.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/side.hpp"
#include "referee/cpu_clock.hpp"

namespace arena {

struct MorrisServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t white_port = 5800;  // 0: any free port
  std::uint16_t black_port = 5801;
  int move_time_ms = 60000;
  int games = 1;
  std::filesystem::path records_dir = "records";
  bool show_board = false;  // print every state as the course's State.toString() did
  // Called (on the server's thread) when a client takes a seat (true) or White leaves before
  // Black came (false). A tournament uses it to start the Black agent only once White is in.
  std::function<void(Side, bool seated)> on_seat;
  // The CPU time each side's agent has used so far (a tournament's sandbox measures it); each
  // move's cpu_ms in the record is its difference over the turn. Null: not recorded.
  CpuClock cpu_clock;
  // >0: a game is stopped after this many plies, a draw ("ply-limit"; a hand-in's smoke game).
  int max_plies = 0;
  // Called (on the server's thread) when a client connects to the port of `side` while that
  // seat is taken: an agent started for the other side that connects to the wrong port.
  std::function<void(Side side, std::uint16_t port)> on_wrong_port;
};

class MorrisServer {
 public:
  MorrisServer(MorrisServerOptions options, std::ostream& out);
  ~MorrisServer();
  MorrisServer(const MorrisServer&) = delete;
  MorrisServer& operator=(const MorrisServer&) = delete;

  // Binds both ports; throws std::runtime_error with the reason. Gives {white port, black port}.
  std::pair<std::uint16_t, std::uint16_t> listen();
  // Serves the games, then returns. With handle_signals, SIGINT/SIGTERM abort a game in progress
  // (recorded as aborted) and stop the server.
  void run(bool handle_signals = false);
  void stop();  // safe from any thread

  std::vector<std::filesystem::path> record_paths() const;
  std::filesystem::path run_directory() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena
