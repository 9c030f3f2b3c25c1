#include "referee/course_client.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <asio.hpp>
#include <optional>
#include <ostream>
#include <stdexcept>

#include "core/text.hpp"
#include "protocol/course_lines.hpp"
#include "protocol/line_splitter.hpp"

namespace arena {
namespace {

using asio::ip::tcp;

// A protocol violation by the server: the client stops with this message.
struct ServerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class LineReader {
 public:
  explicit LineReader(tcp::socket& s) : socket_(s), lines_(course::kMaxLineBytes) {}
  // The next line, or nullopt when the server closed the connection.
  std::optional<std::string> next() {
    while (true) {
      if (auto line = lines_.next_line()) return line;
      if (lines_.overflowed())
        throw ServerError(
            fmt::format("the server sent a line longer than {} bytes", course::kMaxLineBytes));
      asio::error_code ec;
      const std::size_t n = socket_.read_some(asio::buffer(buffer_), ec);
      if (ec == asio::error::eof || ec == asio::error::connection_reset) return std::nullopt;
      if (ec) throw ServerError("connection lost: " + ec.message());
      lines_.feed(std::string_view(buffer_.data(), n));
    }
  }

 private:
  tcp::socket& socket_;
  LineSplitter lines_;
  std::array<char, 4096> buffer_{};
};

std::string result_word(course::ServerKind k) {
  switch (k) {
    case course::ServerKind::Victory:
      return "VICTORY";
    case course::ServerKind::Defeat:
      return "DEFEAT";
    default:
      return "TIE";
  }
}

// The rules the player assumes, said once so that a mismatch with the server is easy to see.
std::string rules_note(const GameInfo& game, const RuleOptions& rules) {
  const int limit = rules.moves_per_player.value_or(game.default_moves_per_player);
  if (limit == 0) return "";
  return fmt::format(" (move limit {} a player; at the limit {})", limit,
                     rules.limit_rule == LimitRule::Draw ? "a draw" : "more stones wins");
}

// The server goes on where the game is over by the rules the player was given: most likely the
// server's move limit is not the one we assumed.
ServerError past_the_end(const AnyState& state, std::string_view message) {
  const Result r = state.result();
  return ServerError(fmt::format(
      "the server sent {} at ply {}, after the game ended ({}){}", message, state.ply(), r.detail,
      r.reason == "move-limit" ? "; give the server's move limit with --moves-per-player" : ""));
}

}  // namespace

ClientOutcome run_course_client(const GameInfo& game, const CourseClientOptions& options,
                                Player& player, std::ostream& log) {
  asio::io_context io;
  tcp::socket socket(io);
  try {
    tcp::resolver resolver(io);
    asio::error_code ec;
    const auto endpoints = resolver.resolve(options.host, options.port, ec);
    if (ec)
      return {2, fmt::format("error: cannot resolve {}:{}: {}", options.host, options.port,
                             ec.message())};
    asio::connect(socket, endpoints, ec);
    if (ec)
      return {2, fmt::format("error: cannot connect to {}:{}: {}", options.host, options.port,
                             ec.message())};
    socket.set_option(tcp::no_delay(true), ec);

    LineReader reader(socket);
    auto state = game.start(options.rules);
    std::optional<Side> side;
    bool moved_since_turn = false;
    std::string notes;
    while (true) {
      const auto line = reader.next();
      if (!line) {
        throw ServerError(
            side ? fmt::format("the server closed the connection after ply {} without a result",
                               state->ply())
                 : "the server closed the connection before WELCOME");
      }
      const auto msg = course::parse_server_line(*line);
      if (!msg) throw ServerError("the server sent " + msg.error);
      if (options.verbose) fmt::print(log, "< {}\n", *line);
      using K = course::ServerKind;
      const K kind = msg.value->kind;
      const std::string& arg = msg.value->argument;
      if (kind == K::Message) {
        if (!options.verbose) fmt::print(log, "server: {}\n", arg);
        continue;
      }
      if (kind == K::Welcome) {
        if (side) throw ServerError("the server sent WELCOME twice");
        side = arg == "White" ? Side::White : Side::Black;
        fmt::print(log, "Playing {} as {}{}\n", game.title, side_name(*side),
                   rules_note(game, options.rules));
        log.flush();
        continue;
      }
      if (!side) throw ServerError("the server sent '" + printable(*line) + "' before WELCOME");
      switch (kind) {
        case K::OpponentMove: {
          if (state->result().over()) throw past_the_end(*state, "OPPONENT_MOVE");
          if (state->side_to_move() == *side)
            throw ServerError("the server sent OPPONENT_MOVE " + printable(arg) + " on our turn");
          const auto played = state->play(arg);
          if (!played)
            throw ServerError(fmt::format("the server relayed an illegal move '{}': {}",
                                          printable(arg), played.error));
          fmt::print(log, "{:>4}. {:<5} {} (opponent)\n", state->ply(), side_name(opposite(*side)),
                     *played.value);
          if (options.verbose) fmt::print(log, "{}\n", state->render());
          break;
        }
        case K::YourTurn: {
          if (state->result().over()) throw past_the_end(*state, "YOUR_TURN");
          if (state->side_to_move() != *side)
            throw ServerError(fmt::format(
                "the server sent YOUR_TURN at ply {} when it is not our move", state->ply()));
          const std::string move = player.choose(*state);
          const std::string line_out = course::move_line(move);
          asio::write(socket, asio::buffer(line_out), ec);
          if (ec) throw ServerError("could not send the move: " + ec.message());
          const auto played = state->play(move);
          if (!played) throw std::logic_error("the player chose an illegal move " + move);
          moved_since_turn = true;
          fmt::print(log, "{:>4}. {:<5} {}   {}\n", state->ply(), side_name(*side), move,
                     player.last_info());
          if (options.verbose) fmt::print(log, "{}\n", state->render());
          break;
        }
        case K::ValidMove:
          if (!moved_since_turn) throw ServerError("the server sent VALID_MOVE without a move");
          moved_since_turn = false;
          break;
        case K::IllegalMove:
          notes = " (the server refused our move)";
          break;
        case K::Timeout:
          notes = " (we ran out of time)";
          break;
        case K::Victory:
        case K::Defeat:
        case K::Tie:
          return {0, fmt::format("{} as {} after {} plies{}", result_word(kind), side_name(*side),
                                 state->ply(), notes)};
        case K::Message:
        case K::Welcome:
          break;
      }
      log.flush();
    }
  } catch (const ServerError& e) {
    return {3, std::string("error: ") + e.what()};
  }
}

}  // namespace arena
