#include "referee/course_server.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <asio.hpp>
#include <chrono>
#include <csignal>
#include <ctime>
#include <deque>
#include <ostream>
#include <stdexcept>

#include "core/text.hpp"
#include "protocol/course_lines.hpp"
#include "protocol/line_splitter.hpp"
#include "referee/course_log.hpp"
#include "referee/listener.hpp"
#include "referee/queued_connection.hpp"
#include "referee/record.hpp"
#include "referee/served_games.hpp"

namespace arena {
namespace {

using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// At most this many unread lines are kept per client; beyond it we stop reading its socket
// (TCP flow control then holds the client back, as the course server's blocking reads did).
constexpr std::size_t kMaxQueuedLines = 32;
struct Incoming {
  enum class Kind { Line, Overlong, Closed } kind;
  std::string text;
};

// One client connection: reads lines into an inbox; writes queued messages in order.
class Connection final : public QueuedConnection {
 public:
  Connection(tcp::socket socket, int group)
      : QueuedConnection(std::move(socket)), lines_(course::kMaxLineBytes), group_(group) {}

  void on_input(std::function<void()> callback) { on_input_ = std::move(callback); }
  int group() const { return group_; }
  std::deque<Incoming>& inbox() { return inbox_; }
  // Whether the client has gone. An overlong line is not a departure: like any unreadable line
  // it is an invalid move, taken on the client's turn.
  bool has_closed_input() const {
    for (const auto& in : inbox_)
      if (in.kind == Incoming::Kind::Closed) return true;
    return false;
  }

  void start_reading() {
    if (reading_ || input_done_ || inbox_.size() >= kMaxQueuedLines) return;
    reading_ = true;
    socket_.async_read_some(asio::buffer(buffer_),
                            [self = self<Connection>()](const asio::error_code& ec, std::size_t n) {
                              self->reading_ = false;
                              self->on_read(ec, n);
                            });
  }

 private:
  LineSplitter lines_;
  int group_;
  std::function<void()> on_input_;
  std::array<char, 4096> buffer_{};
  std::deque<Incoming> inbox_;
  bool reading_ = false, input_done_ = false;

  void on_read(const asio::error_code& ec, std::size_t n) {
    if (closed()) return;
    if (ec) {
      input_done_ = true;
      inbox_.push_back({Incoming::Kind::Closed, ec == asio::error::eof ? "" : ec.message()});
    } else {
      lines_.feed(std::string_view(buffer_.data(), n));
      while (auto line = lines_.next_line())
        inbox_.push_back({Incoming::Kind::Line, std::move(*line)});
      if (lines_.overflowed()) {
        input_done_ = true;
        inbox_.push_back({Incoming::Kind::Overlong, {}});
      }
    }
    start_reading();
    if (on_input_) on_input_();
  }

  // The client is gone: the game hears it as if the read had ended (not as a timeout later).
  void on_write_failed(const asio::error_code& ec) override {
    if (input_done_) return;
    input_done_ = true;
    inbox_.push_back({Incoming::Kind::Closed, ec.message()});
    if (on_input_) on_input_();
  }
};

}  // namespace

class CourseServer::Impl final : public ServedGames {
 public:
  Impl(const GameInfo& game, CourseServerOptions options, std::ostream& out)
      : ServedGames(out, options.games),
        game_(game),
        options_(std::move(options)),
        acceptor_(io_),
        warmup_timer_(io_),
        move_timer_(io_) {}

  std::uint16_t listen() {
    const std::uint16_t port = open_listener(acceptor_, options_.host, options_.port);
    open_run_directory(options_.records_dir, game_.name);
    return port;
  }

  void run(bool handle_signals) {
    accept_next();
    serve(handle_signals);
  }

 private:
  enum class Phase { Waiting, Warmup, Playing, Over };

  const GameInfo& game_;
  CourseServerOptions options_;
  tcp::acceptor acceptor_;
  asio::steady_timer warmup_timer_, move_timer_;
  int next_group_ = 0;

  // The game being played.
  Phase phase_ = Phase::Waiting;
  std::array<std::shared_ptr<Connection>, 2> seats_;
  std::unique_ptr<AnyState> state_;
  Clock::time_point turn_started_;
  std::optional<std::chrono::microseconds> turn_cpu_;  // the mover's CPU clock at its turn's start
  Clock::time_point game_started_;
  GameRecord record_;
  std::unique_ptr<CourseLog> log_;

  void start_game() override {
    phase_ = Phase::Waiting;
    seats_ = {};
    state_ = game_.start(options_.rules);
    record_ = GameRecord{};
    record_.game = std::string(game_.name);
    record_.settings = {
        {"move_time_ms", options_.move_time_ms},
        {"warmup_ms", options_.warmup_ms},
        {"moves_per_player",
         options_.rules.moves_per_player.value_or(game_.default_moves_per_player)},
        {"limit_rule", limit_rule_key(options_.rules.limit_rule)},
        {"referee", "arena course server"},
    };
    if (options_.max_plies > 0) record_.settings["max_plies"] = options_.max_plies;
    log_.reset();
  }

  void accept_next() {
    acceptor_.async_accept([this](const asio::error_code& ec, tcp::socket socket) {
      if (ec) {
        if (ec != asio::error::operation_aborted && !stopping()) accept_next();
        return;
      }
      on_accept(std::move(socket));
      if (!stopping()) accept_next();
    });
  }

  void on_accept(tcp::socket socket) {
    if (phase_ != Phase::Waiting || stopping()) {
      auto c = std::make_shared<Connection>(std::move(socket), -1);
      record_.events.push_back(
          fmt::format("refused connection from {}: a game is in progress", c->peer()));
      fmt::print(out_, "Refused a connection from {}: a game is in progress\n", c->peer());
      c->send(course::message("A game is in progress, try again later"));
      close_when_delivered(std::move(c));
      return;
    }
    const Side side = seats_[0] ? Side::Black : Side::White;
    const int group = next_group_++;
    auto conn = std::make_shared<Connection>(std::move(socket), group);
    conn->on_input([this, weak = std::weak_ptr<Connection>(conn)] {
      if (auto c = weak.lock()) on_input(c);
    });
    seats_[index(side)] = conn;
    record_.player(side) = {fmt::format("Group {}", group), conn->peer()};
    fmt::print(out_, "{} connected from {} as Group {}\n", side_name(side), conn->peer(), group);
    out_.flush();
    conn->send(course::welcome(side));
    conn->send(course::message(fmt::format("Group {}, please wait for the opponent", group)));
    conn->start_reading();
    if (options_.on_seat) options_.on_seat(side, true);
    if (seats_[0] && seats_[1]) both_connected();
  }

  void both_connected() {
    for (auto& c : seats_) c->send(course::message("All players connected"));
    phase_ = Phase::Warmup;
    record_.started_at = utc_now_iso8601();
    game_started_ = Clock::now();
    log_ = std::make_unique<CourseLog>(game_.course_log, seats_[0]->group(), seats_[1]->group());
    log_->start(*state_);
    save_live_record();
    fmt::print(out_, "Game {}: White = Group {}, Black = Group {}; first move in {} ms\n",
               games_done() + 1, seats_[0]->group(), seats_[1]->group(), options_.warmup_ms);
    out_.flush();
    warmup_timer_.expires_after(std::chrono::milliseconds(options_.warmup_ms));
    warmup_timer_.async_wait([this](const asio::error_code& ec) {
      if (!ec && phase_ == Phase::Warmup) start_turn();
    });
    // A client may have left already (or during the warm-up): that is handled as input.
    for (auto& c : seats_) on_input(c);
  }

  Side seat_of(const std::shared_ptr<Connection>& c) const {
    return seats_[0] == c ? Side::White : Side::Black;
  }
  bool seated(const std::shared_ptr<Connection>& c) const {
    return seats_[0] == c || seats_[1] == c;
  }

  void on_input(const std::shared_ptr<Connection>& c) {
    if (!seated(c)) return;
    const Side side = seat_of(c);
    switch (phase_) {
      case Phase::Waiting:
        if (c->has_closed_input()) {
          record_.events.push_back(
              fmt::format("Group {} ({}) left before the game started", c->group(), c->peer()));
          fmt::print(out_, "{} (Group {}) left before the game started\n", side_name(side),
                     c->group());
          c->close_now();
          seats_[index(side)].reset();  // the next client to connect takes this colour
          if (options_.on_seat) options_.on_seat(side, false);
        }
        return;
      case Phase::Warmup:
        if (c->has_closed_input()) disconnected(side, false);
        return;
      case Phase::Playing:
        if (side == state_->side_to_move())
          take_turn_input();
        else if (c->has_closed_input())
          disconnected(side, false);
        return;
      case Phase::Over:
        return;
    }
  }

  void start_turn() {
    phase_ = Phase::Playing;
    const Side side = state_->side_to_move();
    seats_[index(side)]->send(course::your_turn());
    turn_started_ = Clock::now();
    turn_cpu_ = cpu_reading(options_.cpu_clock, side);
    const int ply = state_->ply();
    move_timer_.expires_after(std::chrono::milliseconds(options_.move_time_ms));
    move_timer_.async_wait([this, ply](const asio::error_code& ec) {
      if (!ec && phase_ == Phase::Playing && state_->ply() == ply) timed_out();
    });
    take_turn_input();  // a move sent early is used now
  }

  long long elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - turn_started_)
        .count();
  }

  void take_turn_input() {
    if (phase_ != Phase::Playing) return;
    const Side side = state_->side_to_move();
    auto& conn = seats_[index(side)];
    auto& inbox = conn->inbox();
    if (inbox.empty()) return;
    Incoming in = std::move(inbox.front());
    inbox.pop_front();
    conn->start_reading();  // room in the inbox again
    const long long ms = elapsed_ms();
    if (ms > options_.move_time_ms) return timed_out();
    switch (in.kind) {
      case Incoming::Kind::Closed:
        return disconnected(side, true);
      case Incoming::Kind::Overlong:
        log_->elapsed(ms);
        log_->received("<line too long>");
        return invalid(side,
                       fmt::format("sent a line longer than {} bytes", course::kMaxLineBytes));
      case Incoming::Kind::Line:
        break;
    }
    log_->elapsed(ms);
    log_->received(in.text);
    const auto move_text = course::parse_client_line(in.text);
    if (!move_text && !moved(side))
      return invalid(side, fmt::format("sent a line that is not a move before its first move: "
                                       "unreadable line '{}': {} (a client sends only its moves)",
                                       printable(in.text), move_text.error));
    if (!move_text)
      return invalid(side,
                     fmt::format("unreadable line '{}': {}", printable(in.text), move_text.error));
    const auto played = state_->play(*move_text.value);
    if (!played)
      return invalid(
          side, fmt::format("illegal move '{}': {}", printable(*move_text.value), played.error));
    move_timer_.cancel();
    const std::string& move = *played.value;
    record_.moves.push_back(
        {state_->ply(), side, move, ms, cpu_ms_since(options_.cpu_clock, side, turn_cpu_)});
    if (!state_->result().over()) save_live_record();  // before anyone hears of the move
    conn->send(course::valid_move());
    log_->played(*state_);
    fmt::print(out_, "{:>4}. {:<5} {:<10} {:>6} ms   {}\n", state_->ply(), side_name(side), move,
               ms, game_.course_log ? game_.course_log->counts(*state_) : std::string{});
    if (options_.show_board) fmt::print(out_, "{}\n", state_->render());
    out_.flush();
    auto& other = seats_[index(opposite(side))];
    other->send(course::opponent_move(move));
    const Result r = state_->result();
    if (r.over()) return finish(r.outcome, std::string(r.reason), std::string(r.detail));
    if (options_.max_plies > 0 && state_->ply() >= options_.max_plies)
      return finish(Outcome::Draw, kPlyLimitReason, ply_limit_detail(options_.max_plies));
    start_turn();
  }

  bool moved(Side side) const {
    for (const MoveRecord& m : record_.moves)
      if (m.side == side) return true;
    return false;
  }

  void timed_out() {
    const Side late = state_->side_to_move();
    log_->elapsed(elapsed_ms());
    log_->timeout(late);
    seats_[index(late)]->send(course::timeout());
    seats_[index(late)]->send(course::defeat());
    seats_[index(opposite(late))]->send(course::message("Opponent timeout"));
    seats_[index(opposite(late))]->send(course::victory());
    finish(win_for(opposite(late)), "timeout",
           fmt::format("{} did not move within {} ms", side_name(late), options_.move_time_ms),
           false);
  }

  void invalid(Side offender, const std::string& why) {
    log_->invalid(offender);
    auto& bad = seats_[index(offender)];
    bad->send(course::message("You have sent an invalid move"));
    bad->send(course::illegal_move());
    bad->send(course::defeat());
    auto& good = seats_[index(opposite(offender))];
    good->send(course::message("Your opponent has sent an invalid move"));
    good->send(course::victory());
    finish(win_for(opposite(offender)), "illegal-move",
           fmt::format("{} {}", side_name(offender), why), false);
  }

  void disconnected(Side who, bool on_turn) {
    if (on_turn) log_->elapsed(elapsed_ms());
    log_->disconnected(who);
    auto& good = seats_[index(opposite(who))];
    good->send(course::message(on_turn ? "Your opponent has sent an invalid move"
                                       : "Opponent disconnected"));
    good->send(course::victory());
    finish(win_for(opposite(who)), "disconnect",
           fmt::format("{} closed the connection {}", side_name(who),
                       on_turn ? "on its turn" : "while waiting for its turn"),
           false);
  }

  // Ends the game: result messages (unless already sent), record, log, close.
  void finish(Outcome outcome, std::string reason, std::string detail, bool send_results = true) {
    if (phase_ == Phase::Over) return;
    phase_ = Phase::Over;
    move_timer_.cancel();
    warmup_timer_.cancel();
    if (send_results) {
      for (Side s : {Side::White, Side::Black}) {
        const std::string msg = outcome == Outcome::Draw ? course::tie()
                                : outcome == win_for(s)  ? course::victory()
                                                         : course::defeat();
        seats_[index(s)]->send(msg);
      }
    }
    for (auto& c : seats_) close_when_delivered(c);
    game_over(record_, outcome, std::move(reason), std::move(detail), record_file(),
              CourseLog::file_name(seats_[0]->group(), seats_[1]->group()), log_->text());
  }

  // Rewritten after every move while the game is played.
  std::string record_file() const {
    return fmt::format("Group{}_WhiteGroup{}_Black.json", seats_[0]->group(), seats_[1]->group());
  }

  void save_live_record() { ServedGames::save_live_record(record_file(), record_); }

  void abort_game(const std::string& why) override {
    if (phase_ != Phase::Warmup && phase_ != Phase::Playing) return;
    for (auto& c : seats_) c->send(course::message("The server is stopping: game aborted"));
    finish(Outcome::Ongoing, "aborted", why, false);
  }

  void stop_serving() override {
    asio::error_code ec;
    acceptor_.close(ec);
    warmup_timer_.cancel();
    move_timer_.cancel();
    for (auto& c : seats_) close_when_delivered(c);
  }
};

CourseServer::CourseServer(const GameInfo& game, CourseServerOptions options, std::ostream& out)
    : impl_(std::make_unique<Impl>(game, std::move(options), out)) {}
CourseServer::~CourseServer() = default;
std::uint16_t CourseServer::listen() {
  return impl_->listen();
}
void CourseServer::run(bool handle_signals) {
  impl_->run(handle_signals);
}
void CourseServer::stop() {
  impl_->stop();
}
std::vector<std::filesystem::path> CourseServer::record_paths() const {
  return impl_->record_paths();
}
std::filesystem::path CourseServer::run_directory() const {
  return impl_->run_directory();
}

}  // namespace arena
