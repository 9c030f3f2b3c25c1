#pragma once
// The Paper Soccer course referee (Politehnica Bucharest 2013): starts two bot commands, talks
// the S / M / F line protocol on their stdin/stdout, turns player 2's directions by 180 degrees,
// enforces the time per turn, writes the course's viewer_log and arena's JSON record. Unlike the
// original, a bot that errs loses. See docs/soccer-protocol.md.
#include <array>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "core/any_game.hpp"
#include "referee/record.hpp"
#include "sandbox/child_process.hpp"
#include "sandbox/sandbox.hpp"

namespace arena {

struct SoccerRefereeOptions {
  std::array<std::string, 2> commands;  // player 1 (moves first, attacks north), player 2
  // User-CPU time of a bot's process group between its answers, as the original measured it.
  std::chrono::microseconds cpu_per_turn = std::chrono::seconds(10);
  // Wall time from the referee's message to the answer (the original: twice the CPU limit).
  std::chrono::milliseconds wall_per_turn = std::chrono::seconds(20);
  std::filesystem::path viewer_log = "viewer_log";
  std::filesystem::path records_dir = "records";
  BotStderr bot_stderr = BotStderr::Inherit;
  // With BotStderr::File: each bot's stderr, of which the last `limits.log_bytes` are kept.
  std::array<std::filesystem::path, 2> bot_logs;
  // The bots' sandbox (off: plain child processes) and what each bot is given in it.
  SandboxPlan sandbox;
  std::array<AgentJailSpec, 2> bots;
  // After `F`, how long the bots get to exit before their process groups are killed.
  std::chrono::milliseconds exit_grace{500};
  // Kill and reap every child of this process at the end, orphans a bot left behind included
  // (set when this process is a subreaper; see process_group.hpp).
  bool end_adopted_orphans = false;
  // >0: the game is stopped after this many turns, a draw ("ply-limit"; a hand-in's smoke game).
  int max_plies = 0;
};

// One finished turn, for printing as the game goes.
struct SoccerTurnEvent {
  int player = 0;        // 0 or 1, as in viewer_log
  std::string turn;      // "N d1 .. dN" in the referee's frame
  std::string bot_line;  // what the bot sent, in its own frame
  std::chrono::milliseconds wall{0};
  std::chrono::microseconds cpu{0};  // user-CPU since its previous answer
  const AnyState* state = nullptr;   // the game after the turn (render() draws the field)
};

struct SoccerGameReport {
  int winner = 0;  // 0: player 1, 1: player 2, -1: nobody (stopped at max_plies)
  GameRecord record;
  std::filesystem::path record_path;
  std::string record_error;  // why the record could not be written (then record_path is empty)
};

// Plays one game. Throws std::runtime_error only for trouble of our own (cannot start a shell,
// cannot write the log); everything a bot does ends the game with a winner.
SoccerGameReport run_soccer_game(const SoccerRefereeOptions& options,
                                 const std::function<void(const SoccerTurnEvent&)>& on_turn = {});

// Each bot's jail as the referee sets it up by itself: its folder is the working directory, it
// may read arena's own folder, and bot 1 gets the first `cpus` usable cores, bot 2 the next.
std::array<AgentJailSpec, 2> default_bot_jails(const AgentLimits& limits);

// The original referee's last line: "Jucatorul <0|1> a castigat jocul."
std::string soccer_winner_line(int winner);
// The original referee's exit status: 61 when player 1 won, 62 when player 2 won.
constexpr int soccer_exit_status(int winner) {
  return 61 + winner;
}
// The exit status of a game stopped at max_plies (nobody won).
inline constexpr int kSoccerStopped = 0;
// The exit status when a bot's command cannot start (found before the game; nobody won).
inline constexpr int kSoccerBotCannotStart = 2;

}  // namespace arena
