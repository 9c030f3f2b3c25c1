#pragma once
// `arena <command>`: each command registers itself on the app and sets the exit code it ends with.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "core/rules.hpp"
#include "games/registry.hpp"
#include "referee/course_client.hpp"
#include "referee/morris_server.hpp"
#include "sandbox/sandbox.hpp"

namespace arena::cli {

void add_perft(CLI::App& app, int& exit_code);
void add_serve(CLI::App& app, int& exit_code);
void add_connect(CLI::App& app, int& exit_code);
void add_play(CLI::App& app, int& exit_code);
void add_bench(CLI::App& app, int& exit_code);
void add_tournament(CLI::App& app, int& exit_code);
// `arena tournament report`: added to the tournament command (tournament_report.cpp).
void add_tournament_report(CLI::App& tournament, int& exit_code);
// `arena tournament play`, `status` and `slurm`: an event played in shards.
void add_tournament_cluster(CLI::App& tournament, int& exit_code);
// The running arena binary (it runs the built-in agents).
std::filesystem::path own_binary();
// On SIGINT/SIGTERM/SIGHUP: kill every agent, call on_stop, say how to continue
// (`continue_command`), exit. Finished games are already in the journal.
void handle_stop_signals(std::string continue_command, std::function<void(int)> on_stop = {});
void add_mulino(CLI::App& app, int& exit_code);

// `arena serve morris`: the Bologna course's Java-serialization server (serve_morris.cpp).
int serve_morris(const MorrisServerOptions& options);
void add_replay(CLI::App& app, int& exit_code);
void add_web(CLI::App& app, int& exit_code);
void add_soccer_referee(CLI::App& app, int& exit_code);
void add_soccer_ref(CLI::App& app, int& exit_code);
void add_soccer_view(CLI::App& app, int& exit_code);
void add_soccer_bot(CLI::App& app, int& exit_code);
void add_sandbox(CLI::App& app, int& exit_code);
void add_match(CLI::App& app, int& exit_code);
void add_engine(CLI::App& app, int& exit_code);
// `arena endgames build|check morris` (endgames.cpp).
void add_endgames(CLI::App& app, int& exit_code);
// `arena handin check GAME PATH` (handin_check.cpp).
void add_handin(CLI::App& app, int& exit_code);
// `arena handin batch GAME DIR`: a whole cohort (handin_batch.cpp), added to `handin`.
void add_handin_batch(CLI::App& handin, int& exit_code);

// `arena course init|serve|backup|password|token|status` (course.cpp, submit.cpp).
void add_course(CLI::App& app, int& exit_code);
// `arena submit URL FILE` (submit.cpp).
void add_submit(CLI::App& app, int& exit_code);

// The game argument every game command takes, checked against the registry.
CLI::Option* add_game_argument(CLI::App& cmd, std::string& game);
const GameInfo& game_named(const std::string& name);

// The built-in player an agent command plays with: --player, --depth, --seed (as given on the
// command line; the move time is each command's own option).
struct BuiltInPlayerOptions {
  PlayerKind kind = PlayerKind::Engine;
  int depth = 0;
  std::uint64_t seed = 1;
  int threads = 1;
  int level = 0;
};
void add_built_in_player_options(CLI::App& cmd, BuiltInPlayerOptions& options);
// The player those options and the move time describe; with cpu_time_limit the move time is CPU
// time, all threads together (PlayerSpec).
std::unique_ptr<Player> make_built_in_player(const GameInfo& game,
                                             const BuiltInPlayerOptions& options, int move_time_ms,
                                             bool cpu_time_limit = false);

// Plays a client's game to its end: its one-line summary on stdout (stderr when the game could
// not be played) and its exit code; an exception is reported as an error (exit code 1).
int run_client(const std::function<ClientOutcome()>& play);

// Turns a name (any case) into its enum value for an option; anything else is refused with the
// list of names, e.g. "--player: 'foo' is not one of: engine, greedy, random".
template <class Enum>
CLI::Validator one_of(std::map<std::string, Enum> names) {
  std::string list;
  for (const auto& [name, value] : names) list += (list.empty() ? "" : ", ") + name;
  return CLI::Validator(
      [names = std::move(names), list](std::string& text) -> std::string {
        std::string lower = text;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const auto it = names.find(lower);
        if (it == names.end()) return "'" + text + "' is not one of: " + list;
        text = std::to_string(static_cast<int>(it->second));
        return {};
      },
      "");
}

// The agents' sandbox and limits (cli/sandbox.cpp): --sandbox, --memory, --max-processes,
// --log-limit and the CPU option named `cpus_option` (--cpus-per-agent, --cpus-per-bot).
struct SandboxOptions {
  SandboxMode mode = SandboxMode::Auto;
  AgentLimits limits;
};
void add_sandbox_options(CLI::App& cmd, SandboxOptions& options, const std::string& cpus_option);

// --moves-per-player and --limit-rule.
void add_rule_options(CLI::App& cmd, int& moves_per_player, LimitRule& rule);
// The rules the options give for `game`; an error for a limit's option where the game has none.
RuleOptions rule_options(std::string_view game, int moves_per_player, LimitRule rule);

}  // namespace arena::cli
