#include "view/replay.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <ostream>

#include "games/registry.hpp"
#include "view/folder_index.hpp"
#include "view/terminal_board.hpp"
#include "view/terminal_keys.hpp"

namespace arena::view {
namespace {

std::string title(const GameRecord& r) {
  const GameInfo* g = find_game(r.game);
  return fmt::format("{}: {} (White) vs {} (Black)", g ? std::string(g->title) : r.game,
                     r.white.name, r.black.name);
}

}  // namespace

std::string ply_line(const GameRecord& r, std::size_t ply) {
  if (ply == 0 || ply > r.moves.size())
    return fmt::format("Start position ({} plies)", r.moves.size());
  const MoveRecord& m = r.moves[ply - 1];
  return fmt::format("Ply {}/{}: {} {} ({} ms){}", ply, r.moves.size(), side_name(m.side), m.move,
                     m.time_ms, m.note ? fmt::format(" ({})", *m.note) : "");
}

void print_game(const GameRecord& r, const GameViews& views, std::ostream& out, bool color) {
  fmt::print(out, "{}\n", title(r));
  if (!r.started_at.empty()) fmt::print(out, "Started {}\n", r.started_at);
  for (std::size_t i = 0; i < views.positions.size(); ++i) {
    fmt::print(out, "\n{}\n{}", ply_line(r, i),
               draw_terminal(views.positions[i], i > 0 ? &views.positions[i - 1] : nullptr, color));
  }
  if (!views.error.empty()) fmt::print(out, "\nerror: {}\n", views.error);
  fmt::print(out, "\nResult: {}\n", result_line(r));
  out.flush();
}

int interactive_replay(const std::filesystem::path& file, int in_fd, std::ostream& out,
                       bool color) {
  GameRecord record = read_record(file);
  GameViews views = replay_views(record);
  std::string version = file_version(file);
  std::size_t ply = 0;
  RawTerminal raw(in_fd);
  out << "\x1b[?1049h\x1b[?25l";  // alternate screen, cursor hidden
  bool redraw = true;
  while (true) {
    const std::size_t last = views.positions.empty() ? 0 : views.positions.size() - 1;
    ply = std::min(ply, last);
    if (redraw) {
      std::string screen = "\x1b[H\x1b[2J";
      screen += fmt::format("{}\n{}\n\n", title(record), ply_line(record, ply));
      if (!views.positions.empty())
        screen += draw_terminal(views.positions[ply], ply > 0 ? &views.positions[ply - 1] : nullptr,
                                color);
      if (!views.error.empty()) screen += fmt::format("error: {}\n", views.error);
      screen += ply == last ? fmt::format("\nResult: {}\n", result_line(record)) : "\n\n";
      screen += "\nD/→ forward   A/← back   Home/< start   End/> end   Esc/Q quit\n";
      out << screen;  // output processing stays on: the terminal turns "\n" into "\r\n"
      out.flush();
      redraw = false;
    }
    const Key key = read_key(in_fd, 500);
    switch (key) {
      case Key::Quit:
        out << "\x1b[?25h\x1b[?1049l";
        out.flush();
        return 0;
      case Key::Forward:
        redraw = ply < last;
        ply = std::min(ply + 1, last);
        break;
      case Key::Back:
        redraw = ply > 0;
        ply = ply > 0 ? ply - 1 : 0;
        break;
      case Key::Start:
        redraw = true;
        ply = 0;
        break;
      case Key::End:
        redraw = true;
        ply = last;
        break;
      case Key::None: {
        // A game being played: reload when the record changes, following it from its last ply.
        const std::string now = file_version(file);
        if (now == version || now.empty()) break;
        try {
          GameRecord fresh = read_record(file);
          const bool at_end = ply == last;
          record = std::move(fresh);
          views = replay_views(record);
          version = now;
          if (at_end && !views.positions.empty()) ply = views.positions.size() - 1;
          redraw = true;
        } catch (const std::exception&) {
          // Being replaced right now: try again at the next tick.
        }
        break;
      }
    }
  }
}

}  // namespace arena::view
