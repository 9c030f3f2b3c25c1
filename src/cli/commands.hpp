#pragma once
// `arena <command>`: each command registers itself on the app and sets the exit code it ends with.
#include <CLI/CLI.hpp>

#include "core/rules.hpp"
#include "games/registry.hpp"
#include "referee/morris_server.hpp"

namespace arena::cli {

void add_perft(CLI::App& app, int& exit_code);
void add_serve(CLI::App& app, int& exit_code);
void add_connect(CLI::App& app, int& exit_code);
void add_play(CLI::App& app, int& exit_code);
void add_bench(CLI::App& app, int& exit_code);
void add_tournament(CLI::App& app, int& exit_code);
void add_mulino(CLI::App& app, int& exit_code);

// `arena serve morris`: the Bologna course's Java-serialization server (serve_morris.cpp).
int serve_morris(const MorrisServerOptions& options);
void add_replay(CLI::App& app, int& exit_code);
void add_web(CLI::App& app, int& exit_code);
void add_soccer_referee(CLI::App& app, int& exit_code);
void add_soccer_ref(CLI::App& app, int& exit_code);
void add_soccer_view(CLI::App& app, int& exit_code);
void add_soccer_bot(CLI::App& app, int& exit_code);

// The game argument every game command takes, checked against the registry.
CLI::Option* add_game_argument(CLI::App& cmd, std::string& game);
const GameInfo& game_named(const std::string& name);

// --moves-per-player and --limit-rule.
void add_rule_options(CLI::App& cmd, int& moves_per_player, LimitRule& rule);
RuleOptions rule_options(int moves_per_player, LimitRule rule);

}  // namespace arena::cli
