#include "referee/morris_server.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <array>
#include <asio.hpp>
#include <chrono>
#include <csignal>
#include <ostream>
#include <stdexcept>

#include "core/text.hpp"
#include "games/morris/state.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_judge.hpp"
#include "protocol/mulino_messages.hpp"
#include "protocol/mulino_position.hpp"
#include "referee/java_connection.hpp"
#include "referee/listener.hpp"
#include "referee/mulino_log.hpp"
#include "referee/record.hpp"
#include "referee/served_games.hpp"

namespace arena {
namespace {

using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

}  // namespace

class MorrisServer::Impl final : public ServedGames {
 public:
  Impl(MorrisServerOptions options, std::ostream& out)
      : ServedGames(out, options.games),
        options_(std::move(options)),
        acceptors_{tcp::acceptor(io_), tcp::acceptor(io_)},
        move_timer_(io_) {}

  std::pair<std::uint16_t, std::uint16_t> listen() {
    for (Side s : {Side::White, Side::Black})
      ports_[index(s)] =
          open_listener(acceptors_[index(s)], options_.host,
                        s == Side::White ? options_.white_port : options_.black_port, side_name(s));
    open_run_directory(options_.records_dir, "morris");
    return {ports_[0], ports_[1]};
  }

  void run(bool handle_signals) { serve(handle_signals); }

 private:
  // White is accepted first and gets its state before Black is accepted, as the course did.
  enum class Phase { WaitingWhite, WaitingBlack, Playing, Over };

  MorrisServerOptions options_;
  std::array<tcp::acceptor, 2> acceptors_;
  asio::steady_timer move_timer_;
  std::array<std::uint16_t, 2> ports_{};
  std::array<bool, 2> accepting_{};  // an accept is pending on the side's port

  // The game being played.
  Phase phase_ = Phase::WaitingWhite;
  std::array<std::shared_ptr<JavaConnection>, 2> seats_;
  std::array<jser::Writer, 2> writers_;  // one stream per connection
  morris::State state_;
  std::array<int, 2> moves_made_{};
  Clock::time_point turn_started_;
  std::optional<std::chrono::microseconds> turn_cpu_;  // the mover's CPU clock at its turn's start
  GameRecord record_;
  std::unique_ptr<MulinoLog> log_;

  void start_game() override {
    phase_ = Phase::WaitingWhite;
    seats_ = {};
    writers_ = {};
    state_ = morris::State::start();
    moves_made_ = {};
    record_ = GameRecord{};
    record_.game = "morris";
    record_.settings = {
        {"move_time_ms", options_.move_time_ms},
        {"white_port", ports_[0]},
        {"black_port", ports_[1]},
        {"protocol", "mulino-java-serialization"},
        {"referee", "arena morris server"},
    };
    if (options_.max_plies > 0) record_.settings["max_plies"] = options_.max_plies;
    log_ = std::make_unique<MulinoLog>(options_.move_time_ms);
    accept(Side::White);
  }

  // Where the caller asks (on_wrong_port: a tournament's or a hand-in's game), White's port is
  // watched too while Black is awaited: a client connecting there is an agent on the wrong port
  // (a Black agent given White's port would otherwise wait unanswered until its connect
  // timeout). Otherwise, and once the game is on, a client there waits for the next game, as on
  // the course's server.
  void accept(Side side) {
    if (accepting_[index(side)]) return;
    accepting_[index(side)] = true;
    acceptors_[index(side)].async_accept(
        [this, side](const asio::error_code& ec, tcp::socket socket) {
          accepting_[index(side)] = false;
          const Phase expected = side == Side::White ? Phase::WaitingWhite : Phase::WaitingBlack;
          if (ec) {
            // A cancel that raced with a new game's start: the new game still needs this port.
            if (ec == asio::error::operation_aborted && !stopping() && phase_ == expected)
              accept(side);
            return;
          }
          if (stopping()) return;
          if (phase_ == expected) return seat(side, std::move(socket));
          if (side == Side::White && phase_ == Phase::WaitingBlack) {
            wrong_port(side, std::move(socket));
            accept(side);
          }
        });
  }

  void wrong_port(Side side, tcp::socket socket) {
    asio::error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    const std::string from =
        ec ? std::string("?") : fmt::format("{}:{}", peer.address().to_string(), peer.port());
    record_.events.push_back(
        fmt::format("refused a connection from {} on {}'s port {}: {} is connected already", from,
                    side_name(side), ports_[index(side)], side_name(side)));
    fmt::print(out_, "Refused a connection from {} on {}'s port {}: {} is connected already\n",
               from, side_name(side), ports_[index(side)], side_name(side));
    out_.flush();
    socket.close(ec);
    if (options_.on_wrong_port) options_.on_wrong_port(side, ports_[index(side)]);
  }

  void seat(Side side, tcp::socket socket) {
    auto conn = std::make_shared<JavaConnection>(std::move(socket), mulino::reader_limits());
    conn->on_input([this, weak = std::weak_ptr<JavaConnection>(conn)] {
      if (auto c = weak.lock()) on_input(c);
    });
    seats_[index(side)] = conn;
    record_.player(side) = {std::string(side_name(side)), conn->peer()};
    fmt::print(out_, "{} connected from {}\n", side_name(side), conn->peer());
    out_.flush();
    log_->connected(side);
    if (options_.on_seat) options_.on_seat(side, true);
    send_state(side);  // the stream header and the start position
    conn->start_reading();
    if (side == Side::White) {
      phase_ = Phase::WaitingBlack;
      accept(Side::Black);
      if (options_.on_wrong_port) accept(Side::White);  // for clients on the wrong port
      on_input(conn);
      return;
    }
    phase_ = Phase::Playing;
    asio::error_code ec;
    acceptors_[index(Side::White)].cancel(ec);  // no longer watched: see accept()
    record_.started_at = utc_now_iso8601();
    log_->state(mulino::wire_state(state_));
    fmt::print(out_, "Game {}: {} ms per move\n", games_done() + 1, options_.move_time_ms);
    out_.flush();
    save_live_record();
    start_turn();  // also handles whatever either player sent (or did) while waiting
  }

  void send_state(Side to) {
    mulino::encode_state(writers_[index(to)], mulino::wire_state(state_));
    seats_[index(to)]->send(writers_[index(to)].take());
  }

  Side seat_of(const std::shared_ptr<JavaConnection>& c) const {
    return seats_[0] == c ? Side::White : Side::Black;
  }

  void on_input(const std::shared_ptr<JavaConnection>& c) {
    if (seats_[0] != c && seats_[1] != c) return;
    const Side side = seat_of(c);
    switch (phase_) {
      case Phase::WaitingBlack:
        if (c->input_ended()) {
          // White left before the game began: the next client on the White port takes its place.
          record_.events.push_back(
              fmt::format("White ({}) left before Black connected", c->peer()));
          fmt::print(out_, "White left before Black connected\n");
          out_.flush();
          c->close_now();
          if (options_.on_seat) options_.on_seat(Side::White, false);
          asio::error_code ec;
          acceptors_[index(Side::Black)].cancel(ec);
          auto events = std::move(record_.events);
          start_game();
          record_.events = std::move(events);
        }
        return;
      case Phase::Playing:
        if (side == state_.side_to_move())
          take_turn_input();
        else
          waiting_player_input(side);
        return;
      case Phase::WaitingWhite:
      case Phase::Over:
        return;
    }
  }

  // The player not on turn can only end its input early: that loses now. Actions it sends
  // early wait for its turn.
  void waiting_player_input(Side side) {
    auto& inbox = seats_[index(side)]->inbox();
    for (const auto& in : inbox) {
      if (in.kind == JavaIncoming::Kind::Closed) return disconnected(side, false, in.error);
      if (in.kind == JavaIncoming::Kind::Broken)
        return illegal(side, fmt::format("sent an unreadable stream while waiting: {}", in.error));
    }
  }

  void start_turn() {
    const Side side = state_.side_to_move();
    log_->waiting(side);
    turn_started_ = Clock::now();
    turn_cpu_ = cpu_reading(options_.cpu_clock, side);
    const int ply = state_.ply();
    move_timer_.expires_after(std::chrono::milliseconds(options_.move_time_ms));
    move_timer_.async_wait([this, ply](const asio::error_code& ec) {
      if (!ec && phase_ == Phase::Playing && state_.ply() == ply) timed_out();
    });
    take_turn_input();  // an action sent early is used now
    if (phase_ == Phase::Playing && state_.ply() == ply) waiting_player_input(opposite(side));
  }

  long long elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - turn_started_)
        .count();
  }

  void take_turn_input() {
    if (phase_ != Phase::Playing) return;
    const Side side = state_.side_to_move();
    auto& conn = seats_[index(side)];
    auto& inbox = conn->inbox();
    if (inbox.empty()) return;
    const JavaIncoming in = inbox.front();
    inbox.pop_front();
    conn->start_reading();  // room in the inbox again
    const long long ms = elapsed_ms();
    if (ms > options_.move_time_ms) return timed_out();
    switch (in.kind) {
      case JavaIncoming::Kind::Closed:
        return disconnected(side, true, in.error);
      case JavaIncoming::Kind::Broken:
        return illegal(side, "sent an unreadable stream: " + in.error);
      case JavaIncoming::Kind::Object:
        break;
    }
    mulino::WireAction action;
    try {
      action = mulino::decode_action(conn->reader(), in.value);
    } catch (const jser::StreamError& e) {
      return illegal(side, e.what());
    }
    const mulino::Judgement judged = mulino::judge_action(state_, action);
    const std::string shown = mulino::action_text(action);
    if (!judged) return refused(side, action, judged);
    // The judge follows the original Engine; arena's rules must agree with what it accepted.
    const auto checked = state_.parse_move(state_.move_text(*judged.move));
    if (!checked) return illegal(side, fmt::format("illegal move '{}': {}", shown, checked.error));
    move_timer_.cancel();
    const std::string canonical = state_.move_text(*checked.value);
    state_.apply(*checked.value);
    MoveRecord played{state_.ply(), side, canonical, ms,
                      cpu_ms_since(options_.cpu_clock, side, turn_cpu_)};
    if (!judged.note.empty()) played.note = judged.note;
    record_.moves.push_back(std::move(played));
    log_->moved(side, ++moves_made_[index(side)], shown);  // as the Engine printed the action
    const mulino::WireState wire = mulino::wire_state(state_);
    log_->state(wire);
    fmt::print(out_, "{:>4}. {:<5} {:<8} {:>6} ms{}\n", state_.ply(), side_name(side), canonical,
               ms, judged.note.empty() ? "" : "  (" + judged.note + ")");
    if (options_.show_board) fmt::print(out_, "{}\n", mulino::course_text(wire));
    out_.flush();
    if (!state_.result().over()) save_live_record();  // before anyone hears of the move
    // Every ply's state goes to both players, the last one too.
    send_state(Side::White);
    send_state(Side::Black);
    const Result r = state_.result();
    if (r.over()) {
      if (r.outcome == Outcome::Draw)
        log_->repetition();
      else
        log_->won(r.outcome == Outcome::WhiteWins ? Side::White : Side::Black, r.detail);
      return finish(r.outcome, std::string(r.reason), std::string(r.detail));
    }
    if (options_.max_plies > 0 && state_.ply() >= options_.max_plies) {
      log_->aborted(ply_limit_detail(options_.max_plies));
      return finish(Outcome::Draw, kPlyLimitReason, ply_limit_detail(options_.max_plies));
    }
    start_turn();
  }

  void timed_out() {
    const Side late = state_.side_to_move();
    log_->timeout(late);
    finish(win_for(opposite(late)), "timeout",
           fmt::format("{} did not move within {} ms", side_name(late), options_.move_time_ms));
  }

  // An action the original Engine refused: its log shows the action and what the Engine printed.
  void refused(Side side, const mulino::WireAction& action, const mulino::Judgement& judged) {
    const std::string shown = mulino::action_text(action);
    if (judged.wrong_class)
      return illegal(side, fmt::format("{} (the course's Engine stopped there: {})", judged.reason,
                                       judged.original_name));
    log_->refused(side, moves_made_[index(side)] + 1, shown, judged.original);
    finish(win_for(opposite(side)), "illegal-move",
           fmt::format("{} illegal move '{}': {} ({})", side_name(side), shown, judged.reason,
                       judged.original_name));
  }

  void illegal(Side offender, const std::string& why) {
    log_->illegal(offender, why);
    finish(win_for(opposite(offender)), "illegal-move",
           fmt::format("{} {}", side_name(offender), why));
  }

  void disconnected(Side who, bool on_turn, const std::string& error) {
    const std::string how = fmt::format("closed the connection {}",
                                        on_turn ? "on its turn" : "while waiting for its turn");
    if (!error.empty())
      record_.events.push_back(
          fmt::format("{}'s connection ended with: {}", side_name(who), error));
    log_->disconnected(who, how);
    finish(win_for(opposite(who)), "disconnect", fmt::format("{} {}", side_name(who), how));
  }

  // Ends the game: the course protocol has no result message, so both connections are closed.
  void finish(Outcome outcome, std::string reason, std::string detail) {
    if (phase_ == Phase::Over) return;
    phase_ = Phase::Over;
    move_timer_.cancel();
    for (auto& c : seats_) close_when_delivered(c);
    const std::string stem = record_stem();
    game_over(record_, outcome, std::move(reason), std::move(detail), stem + ".json", stem + ".log",
              log_->text());
  }

  std::string record_stem() const { return fmt::format("game{:03}", games_done() + 1); }

  void save_live_record() { ServedGames::save_live_record(record_stem() + ".json", record_); }

  void abort_game(const std::string& why) override {
    if (phase_ != Phase::Playing) return;
    log_->aborted(why);
    finish(Outcome::Ongoing, "aborted", why);
  }

  void stop_serving() override {
    asio::error_code ec;
    for (auto& a : acceptors_) a.close(ec);
    move_timer_.cancel();
    for (auto& c : seats_) close_when_delivered(c);
  }
};

MorrisServer::MorrisServer(MorrisServerOptions options, std::ostream& out)
    : impl_(std::make_unique<Impl>(std::move(options), out)) {}
MorrisServer::~MorrisServer() = default;
std::pair<std::uint16_t, std::uint16_t> MorrisServer::listen() {
  return impl_->listen();
}
void MorrisServer::run(bool handle_signals) {
  impl_->run(handle_signals);
}
void MorrisServer::stop() {
  impl_->stop();
}
std::vector<std::filesystem::path> MorrisServer::record_paths() const {
  return impl_->record_paths();
}
std::filesystem::path MorrisServer::run_directory() const {
  return impl_->run_directory();
}

}  // namespace arena
