// `arena soccer-view [viewer_log]`: replays a Paper Soccer referee log in the terminal, like the
// course's viewer: D one turn forward, A one back, ESC quits (also the arrow keys and q).
#include <fmt/format.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli/commands.hpp"
#include "games/soccer/viewer_log.hpp"

namespace arena::cli {
namespace {

// The terminal in raw mode (no echo, no line buffering, no signals) for as long as it lives.
class RawTerminal {
 public:
  RawTerminal() {
    if (tcgetattr(STDIN_FILENO, &saved_) != 0) return;
    termios raw = saved_;
    raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO | ISIG | IEXTEN));
    raw.c_iflag &= static_cast<tcflag_t>(~(IXON | ICRNL));
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    ok_ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0;
  }
  ~RawTerminal() {
    if (ok_) tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
  }
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;
  bool ok() const { return ok_; }

 private:
  termios saved_{};
  bool ok_ = false;
};

enum class Key { Forward, Back, First, Last, Quit, Other };

// One byte, or -1 when nothing arrives within timeout_ms (-1: wait for ever) or input ended.
int read_byte(int timeout_ms) {
  pollfd p{STDIN_FILENO, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return -1;
  unsigned char c = 0;
  return read(STDIN_FILENO, &c, 1) == 1 ? c : -1;
}

Key read_key() {
  const int c = read_byte(-1);
  if (c < 0) return Key::Quit;  // the terminal went away
  switch (c) {
    case 'd':
    case 'D':
    case ' ':
      return Key::Forward;
    case 'a':
    case 'A':
      return Key::Back;
    case 'q':
    case 'Q':
    case 3 /* Ctrl-C */:
    case 4 /* Ctrl-D */:
      return Key::Quit;
    case 'g':
      return Key::First;
    case 'G':
      return Key::Last;
    case 27:
      break;
    default:
      return Key::Other;
  }
  // ESC alone quits; ESC [ C / ESC [ D (or ESC O C / D) are the right and left arrows.
  const int c2 = read_byte(50);
  if (c2 < 0) return Key::Quit;
  if (c2 != '[' && c2 != 'O') return Key::Other;
  const int c3 = read_byte(50);
  if (c3 == 'C') return Key::Forward;
  if (c3 == 'D') return Key::Back;
  if (c3 == 'H') return Key::First;
  if (c3 == 'F') return Key::Last;
  return Key::Other;
}

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
  RawTerminal raw;
  std::size_t shown = 0;
  while (true) {
    fmt::print("\x1b[H\x1b[2J{}\n[D/->] forward  [A/<-] back  [g/G] first/last  [ESC/q] quit\n",
               frame(r, shown));
    std::fflush(stdout);
    switch (read_key()) {
      case Key::Forward:
        shown = std::min(shown + 1, r.turns.size());
        break;
      case Key::Back:
        shown = shown > 0 ? shown - 1 : 0;
        break;
      case Key::First:
        shown = 0;
        break;
      case Key::Last:
        shown = r.turns.size();
        break;
      case Key::Quit:
        return;
      case Key::Other:
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
