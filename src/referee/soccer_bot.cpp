#include "referee/soccer_bot.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include "core/text.hpp"
#include "games/registry.hpp"
#include "protocol/line_splitter.hpp"
#include "protocol/soccer_lines.hpp"

namespace arena {
namespace {

namespace wire = soccer_wire;

// Blocking line reader on a file descriptor, bounded like the referee's.
class FdLines {
 public:
  explicit FdLines(int fd) : fd_(fd), lines_(wire::kMaxLineBytes) {}
  // The next line; nullopt at the end of input. Throws on an overlong line.
  std::optional<std::string> next() {
    while (true) {
      if (auto line = lines_.next_line()) return line;
      if (lines_.overflowed()) throw std::runtime_error("the referee sent an overlong line");
      if (eof_) return std::nullopt;
      char buf[4096];
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        eof_ = true;
        lines_.feed("\n");  // a last line without its newline still counts
        continue;
      }
      lines_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    }
  }

 private:
  int fd_;
  LineSplitter lines_;
  bool eof_ = false;
};

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

int run_soccer_bot(int in_fd, int out_fd, Player& player, const SoccerBotOptions& o) {
  ::signal(SIGPIPE, SIG_IGN);  // a referee that went away is an end of game, not a crash
  const GameInfo* game = find_game("soccer");
  if (!game) throw std::runtime_error("this arena was built without the Paper Soccer rules");
  auto say = [&](const std::string& text) {
    if (o.messages) {
      fmt::print(o.messages, "bot {}: {}\n", o.label, text);
      std::fflush(o.messages);
    }
  };
  auto state = game->start({});
  int seat = -1;  // 0: player 1 (got S), 1: player 2 (got M first)
  FdLines lines(in_fd);
  while (true) {
    std::optional<std::string> line;
    try {
      line = lines.next();
    } catch (const std::exception& e) {
      say(e.what());
      return 2;
    }
    if (!line) {
      say("the referee closed my input");
      return 0;
    }
    if (trim(*line).empty()) continue;
    const auto msg = wire::parse_referee_line(*line);
    if (!msg) {
      say(fmt::format("cannot read '{}': {}", printable(*line), msg.error));
      return 2;
    }
    if (msg.value->kind == wire::RefereeKind::Finish) {
      say("game over");
      return 0;
    }
    if (msg.value->kind == wire::RefereeKind::Start) {
      if (seat != -1 || state->ply() != 0) {
        say("S in the middle of a game");
        return 2;
      }
      seat = 0;
      say("I am player 1");
    } else {
      if (seat == -1) {
        seat = 1;
        say("I am player 2");
      }
      const wire::Steps theirs = seat == 0 ? msg.value->steps : wire::rotated(msg.value->steps);
      const auto played = state->play(wire::turn_text(theirs));
      if (!played) {
        say(fmt::format("the opponent's turn '{}' is not legal here: {}", printable(*line),
                        played.error));
        return 2;
      }
    }
    if (state->result().over() || index(state->side_to_move()) != seat) {
      say("not my turn; waiting for F");
      continue;
    }
    const std::string turn = player.choose(*state);
    const auto steps = wire::parse_bot_line("M " + turn);
    const auto played = steps ? state->play(turn) : Parsed<std::string>::fail(steps.error);
    if (!played) {
      say(fmt::format("my player chose '{}', which is not legal: {}", turn, played.error));
      return 2;
    }
    const wire::Steps mine = seat == 0 ? *steps.value : wire::rotated(*steps.value);
    if (!write_all(out_fd, wire::move_line(mine))) {
      say("the referee no longer reads my output");
      return 0;
    }
    const std::string info = player.last_info();
    say(fmt::format("turn {}: M {}{}{}", state->ply(), wire::turn_text(mine),
                    info.empty() ? "" : "  ", info));
  }
}

}  // namespace arena
