// `arena soccer-view [viewer_log]`: replays a Paper Soccer referee log in the terminal, like the
// course's viewer: D one turn forward, A one back, ESC quits (also the arrow keys and q).
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli/commands.hpp"
#include "games/soccer/viewer_log.hpp"
#include "view/terminal_keys.hpp"

namespace arena::cli {
namespace {

std::string who(int player) {
  return player == 0 ? "player 1 (north)" : "player 2 (south)";
}

// The field after `shown` turns, with a line about the last turn and, at the end, the result.
std::string frame(const soccer::LogReplay& r, std::size_t shown) {
  std::string out;
  if (shown == 0)
    out += fmt::format("Start of the game ({} turns in the log)\n", r.turns.size());
  else {
    const soccer::LoggedTurn& t = r.turns[shown - 1];
    out += fmt::format("Turn {}/{}: {}: {}\n", shown, r.turns.size(), who(t.player),
                       soccer::turn_text(t.turn));
  }
  const soccer::State& s = r.states[shown];
  out += s.render();
  const Result res = s.result();
  if (res.over())
    out += fmt::format("Game over: {} wins ({}: {})\n",
                       res.outcome == Outcome::WhiteWins ? "player 1" : "player 2", res.reason,
                       res.detail);
  else if (shown == r.turns.size())
    out += fmt::format("End of the log; {} to move\n", who(index(s.side_to_move())));
  return out;
}

void interactive(const soccer::LogReplay& r) {
  view::RawTerminal raw(STDIN_FILENO);
  std::size_t shown = 0;
  while (true) {
    fmt::print("\x1b[H\x1b[2J{}\n[D/->] forward  [A/<-] back  [g/G] first/last  [ESC/q] quit\n",
               frame(r, shown));
    std::fflush(stdout);
    switch (view::read_key(STDIN_FILENO, -1)) {
      case view::Key::Forward:
        shown = std::min(shown + 1, r.turns.size());
        break;
      case view::Key::Back:
        shown = shown > 0 ? shown - 1 : 0;
        break;
      case view::Key::Start:
        shown = 0;
        break;
      case view::Key::End:
        shown = r.turns.size();
        break;
      case view::Key::Quit:
        return;
      case view::Key::None:
        break;
    }
  }
}

}  // namespace

void add_soccer_view(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "soccer-view",
      "Replay a Paper Soccer referee log (viewer_log) in the terminal: D one turn forward, A one "
      "back, ESC or q quits. Without a terminal, prints every turn's field in turn.");
  auto path = std::make_shared<std::string>();
  cmd->add_option("viewer_log", *path, "The log (default: read it from standard input)");
  cmd->callback([path, &exit_code] {
    const bool from_stdin = path->empty() || *path == "-";
    std::string text;
    std::ifstream file;
    std::istream* in = &std::cin;
    if (!from_stdin) {
      file.open(*path, std::ios::binary);
      if (!file) {
        fmt::print(stderr, "error: cannot open '{}'\n", *path);
        exit_code = 2;
        return;
      }
      in = &file;
    }
    // Read at most one byte past the limit: enough to tell the log is too large.
    text.resize(soccer::kMaxViewerLogBytes + 1);
    in->read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in->gcount()));
    const auto replay = soccer::replay_viewer_log(text);
    if (!replay) {
      fmt::print(stderr, "error: {}: {}\n", from_stdin ? "standard input" : *path, replay.error);
      exit_code = 2;
      return;
    }
    if (!from_stdin && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
      interactive(*replay.value);
      return;
    }
    for (std::size_t i = 0; i <= replay.value->turns.size(); ++i)
      fmt::print("{}{}", i ? "\n" : "", frame(*replay.value, i));
  });
}

}  // namespace arena::cli
