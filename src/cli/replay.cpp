#include "view/replay.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/commands.hpp"

namespace arena::cli {
namespace {

// ANSI colour only on a terminal, and never when NO_COLOR is set (no-color.org).
bool want_color(bool disabled) {
  if (disabled) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

}  // namespace

void add_replay(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "replay",
      "Show a game record in the terminal: on a terminal, step with D/A or the arrows, Home/End "
      "jump, Esc or Q quits (a game being played is followed live); on a pipe, print the whole "
      "game");
  struct Options {
    std::string file;
    bool print = false;
    bool no_color = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("record", o->file, "A game record (JSON) written by arena")->required();
  cmd->add_flag("--print", o->print, "Print the whole game even on a terminal");
  cmd->add_flag("--no-color", o->no_color, "No ANSI colours (also: NO_COLOR set)");
  cmd->callback([o, &exit_code] {
    try {
      const bool interactive =
          !o->print && ::isatty(STDIN_FILENO) == 1 && ::isatty(STDOUT_FILENO) == 1;
      if (interactive) {
        exit_code =
            view::interactive_replay(o->file, STDIN_FILENO, std::cout, want_color(o->no_color));
        return;
      }
      const GameRecord r = read_record(o->file);
      const view::GameViews views = view::replay_views(r);
      view::print_game(r, views, std::cout, want_color(o->no_color));
      if (!views.error.empty()) exit_code = 1;
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
