#pragma once
// Tournament games played on a course server that arena runs in-process for that one game, on
// free ports of 127.0.0.1, with each agent a child process that connects to it: the Calabria line
// protocol (Fission, Murus Gallicus) and the Bologna Morris server. The server's side of it is a
// ServedGame; play_served_game() does the rest (agents, seats, deadline, faults, live record).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/cpu_clock.hpp"
#include "tournament/match_runner.hpp"

namespace arena::tournament {

inline constexpr const char* kAgentHost = "127.0.0.1";

// How an agent is started: a /bin/sh command and what it adds to the environment.
struct AgentLaunch {
  std::string command;
  std::vector<std::string> env;
};

// A course server for one game, listening already.
class ServedGame {
 public:
  virtual ~ServedGame() = default;
  virtual void run() = 0;   // plays the game (called on a thread of its own)
  virtual void stop() = 0;  // ends run() soon; any thread
  virtual std::vector<std::filesystem::path> record_paths() const = 0;
  virtual std::filesystem::path run_directory() const = 0;
  // The agent that plays `side` for participant p.
  virtual AgentLaunch agent(const Participant& p, Side side, std::uint64_t seed) const = 0;
  // The port the agent of `side` connects to.
  virtual std::uint16_t port(Side side) const = 0;
};

struct ServedGameSetup {
  std::filesystem::path records_dir;  // the server's records (a work folder)
  std::ostream* transcript = nullptr;
  // To be called by the server when a client takes its seat (true) or leaves it before the game
  // begins (false).
  std::function<void(Side, bool seated)> on_seat;
  // The CPU time (user + system) each side's agent has used so far, for the record's cpu_ms.
  CpuClock cpu_clock;
  // To be called by a server with a port per side when a client connects to the port of `side`
  // while its seat is taken (the other side's agent on the wrong port).
  std::function<void(Side side, std::uint16_t port)> on_wrong_port;
};

using ServeGame =
    std::function<std::unique_ptr<ServedGame>(const MatchRequest&, const ServedGameSetup&)>;

GameRecord play_served_game(const MatchRequest& request, const ServeGame& serve);

// The options of a built-in agent's command (arena connect, mulino, soccer-bot): --player, --seed,
// --move-time (its own time or the event's) and --depth.
std::vector<std::string> builtin_player_args(const MatchRequest& request, const Participant& p,
                                             std::uint64_t seed);

// `exec` and the words, each quoted for /bin/sh.
std::string exec_command(const std::vector<std::string>& argv);

}  // namespace arena::tournament
