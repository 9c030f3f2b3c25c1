// The Morris course server over real sockets on 127.0.0.1 (free ports): the recorded course game
// replayed byte for byte, and clients that misbehave (garbage, huge lengths, wrong action class,
// leaving, not answering). The server must survive each and record what happened.
#include "referee/morris_server.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "protocol/java_serial/reader.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_messages.hpp"
#include "referee/record.hpp"
#include "support/files.hpp"
#include "support/replay.hpp"
#include "support/sync_stream.hpp"
#include "support/temp_dir.hpp"
#include "support/test_client.hpp"

namespace arena {
namespace {

using testing::read_bytes;

std::string read_mulino_wire(const std::string& name) {
  return testing::read_test_data("mulino-wire/" + name);
}

using namespace std::chrono_literals;
using testing::SyncStream;
using testing::TempDir;
using testing::TestClient;

// Every State in a stream a client received.
std::vector<mulino::WireState> states_in(const std::string& bytes) {
  jser::Reader r(mulino::reader_limits());
  r.feed(bytes);
  std::vector<mulino::WireState> out;
  while (auto v = r.next()) out.push_back(mulino::decode_state(r, *v));
  return out;
}

// A client's stream: the header, then actions given as move text for a phase.
// Each call gives the bytes to send next, so call them in order (not as operands of one +).
class ActionStream {
 public:
  std::string header() { return w_.take(); }
  // The header and actions for several moves, in order.
  std::string moves(std::initializer_list<std::string_view> list) {
    std::string out = w_.take();
    for (auto m : list) out += action(m);
    return out;
  }
  std::string action(std::string_view move, mulino::Phase phase = mulino::Phase::First) {
    mulino::encode_action(w_, *mulino::action_from_move(move, phase).value);
    return w_.take();
  }
  std::string raw(const mulino::WireAction& a) {
    mulino::encode_action(w_, a);
    return w_.take();
  }

 private:
  jser::Writer w_;
};

class MorrisServerTest : public ::testing::Test {
 protected:
  static std::string connected(std::string_view side, const TestClient& c) {
    return fmt::format("{} connected from 127.0.0.1:{}\n", side, c.local_port());
  }
  void TearDown() override {
    if (thread_.joinable()) {
      server_->stop();
      thread_.join();
    }
  }

  void start(int move_time_ms = 3000, int games = 1) {
    MorrisServerOptions o;
    o.white_port = 0;
    o.black_port = 0;
    o.move_time_ms = move_time_ms;
    o.games = games;
    o.records_dir = dir_.path() / "records";
    server_ = std::make_unique<MorrisServer>(o, out_);
    std::tie(white_port_, black_port_) = server_->listen();
    thread_ = std::thread([this] { server_->run(); });
  }

  // Both players seated, White first; each has read the start state.
  void seat_both() {
    white_ = std::make_unique<TestClient>(white_port_);
    ASSERT_TRUE(out_.wait_for(connected("White", *white_), 3s));
    black_ = std::make_unique<TestClient>(black_port_);
    ASSERT_TRUE(out_.wait_for(connected("Black", *black_), 3s));
  }

  // Waits for run() to return (the last game is over) and gives the only record. A server that
  // does not finish fails the test (TearDown stops it) instead of hanging it.
  GameRecord finished() {
    if (!out_.wait_for("Record:", 10s)) {
      ADD_FAILURE() << "the game did not end; the server printed:\n" << out_.text();
      return {};
    }
    if (thread_.joinable()) thread_.join();
    const auto paths = server_->record_paths();
    EXPECT_EQ(paths.size(), 1u);
    return paths.empty() ? GameRecord{} : read_record(paths.front());
  }
  std::string game_log() { return read_bytes(server_->run_directory() / "game001.log"); }

  TempDir dir_;
  SyncStream out_;
  std::unique_ptr<MorrisServer> server_;
  std::thread thread_;
  std::uint16_t white_port_ = 0, black_port_ = 0;
  std::unique_ptr<TestClient> white_, black_;
};

TEST_F(MorrisServerTest, ReplaysTheRecordedCourseGameByteForByte) {
  // The original clients' streams, sent whole: actions sent early wait for their turn.
  start(10000);
  seat_both();
  ASSERT_TRUE(white_->send(read_mulino_wire("white-client-to-server.bin")));
  ASSERT_TRUE(black_->send(read_mulino_wire("black-client-to-server.bin")));
  const std::string to_white = white_->read_to_eof(5s);
  const std::string to_black = black_->read_to_eof(5s);
  // Every state the original server sent, and nothing else: ours writes the same bytes.
  EXPECT_EQ(to_white, read_mulino_wire("server-to-white-client.bin"));
  EXPECT_EQ(to_black, read_mulino_wire("server-to-black-client.bin"));
  const GameRecord r = finished();
  EXPECT_EQ(r.outcome, Outcome::BlackWins);  // White's fourth action put a piece on b4, taken
  EXPECT_EQ(r.reason, "illegal-move");
  ASSERT_EQ(r.moves.size(), 6u);
  EXPECT_EQ(r.moves[4].move, "g1b2");
  testing::replay(r);
  // The course-style log is the original server's printout up to the refused action and the
  // first line of the exception it threw; then arena gives the game to the other player.
  const std::string engine = read_mulino_wire("engine-stdout.txt");
  const std::string thrown =
      "it.unibo.ai.didattica.mulino.actions.PositionNotEmptyException: Position b4 Not Empty\n";
  ASSERT_NE(engine.find(thrown), std::string::npos);
  const std::string expected = engine.substr(0, engine.find(thrown) + thrown.size());
  const std::string log = game_log();
  EXPECT_EQ(log.substr(0, expected.size()), expected);
  EXPECT_EQ(log.substr(expected.size()), "Player B WIN!!!\n");
  EXPECT_EQ(r.detail, "White illegal move 'b4': b4 is not empty (PositionNotEmptyException)");
}

TEST_F(MorrisServerTest, BlackIsAcceptedOnlyAfterWhiteHasItsState) {
  start();
  black_ = std::make_unique<TestClient>(black_port_);  // queued by the kernel, not served yet
  EXPECT_TRUE(black_->silent_for(300ms));
  white_ = std::make_unique<TestClient>(white_port_);
  const auto start_state = states_in(read_mulino_wire("server-to-white-client.bin")).front();
  jser::Writer w;
  mulino::encode_state(w, start_state);
  const std::string first = w.take();
  EXPECT_EQ(white_->read_to_eof(500ms).substr(0, first.size()), first);
  EXPECT_EQ(black_->read_to_eof(500ms).substr(0, first.size()), first);
}

TEST_F(MorrisServerTest, GarbageOnItsTurnLoses) {
  start();
  seat_both();
  ASSERT_TRUE(white_->send("MOVE a1\n"));
  white_->read_to_eof(3s);
  black_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.outcome, Outcome::BlackWins);
  EXPECT_EQ(r.reason, "illegal-move");
  EXPECT_EQ(
      r.detail,
      "White sent an unreadable stream: not a Java serialization stream: it starts 4D 4F 56 45, "
      "not AC ED 00 05");
  EXPECT_TRUE(white_->eof());
}

TEST_F(MorrisServerTest, AHugeLengthFieldLoses) {
  start();
  seat_both();
  ActionStream s;
  ASSERT_TRUE(white_->send(s.header() + std::string("\x7C\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 9)));
  white_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.reason, "illegal-move");
  EXPECT_EQ(
      r.detail,
      "White sent an unreadable stream: a string of 9223372036854775807 bytes is larger than the "
      "message limit");
}

TEST_F(MorrisServerTest, AnUnknownClassLoses) {
  start();
  seat_both();
  ActionStream s;
  const std::string runtime = std::string("\x73\x72\x00\x11java.lang.Runtime", 21) +
                              std::string(8, '\0') + std::string("\x02\x00\x00\x78\x70", 5);
  ASSERT_TRUE(white_->send(s.header() + runtime));
  white_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.detail,
            "White sent an unreadable stream: class java.lang.Runtime is not expected here");
}

TEST_F(MorrisServerTest, TheActionClassMustMatchThePhase) {
  start();
  seat_both();
  ActionStream s;
  std::string bytes = s.header();
  bytes += s.raw({mulino::ActionKind::Phase2, "a1", "a4", {}});
  ASSERT_TRUE(white_->send(bytes));
  white_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.reason, "illegal-move");
  EXPECT_EQ(r.detail,
            "White sent a Phase2Action in phase FIRST, which takes a Phase1Action (the course's "
            "Engine stopped there: System.exit(-2))");
}

TEST_F(MorrisServerTest, AMillMustNameItsRemovalAndOnlyThen) {
  start();
  seat_both();
  ActionStream w, b;
  ASSERT_TRUE(white_->send(w.moves({"a1", "d1"})));
  ASSERT_TRUE(black_->send(b.moves({"b2", "b4"})));
  ASSERT_TRUE(white_->send(w.action("g1")));  // closes a1 d1 g1 without removing
  white_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.reason, "illegal-move");
  EXPECT_EQ(r.moves.size(), 4u);
  EXPECT_NE(r.detail.find("illegal move 'g1'"), std::string::npos) << r.detail;
}

TEST_F(MorrisServerTest, NullFieldsLose) {
  start();
  seat_both();
  ActionStream s;
  std::string bytes = s.header();
  bytes += s.raw({mulino::ActionKind::Phase1, {}, {}, {}});
  ASSERT_TRUE(white_->send(bytes));
  white_->read_to_eof(3s);
  EXPECT_EQ(finished().detail,
            "White illegal move 'null': putPosition is null (WrongPositionException)");
}

TEST_F(MorrisServerTest, NoAnswerIsATimeoutLoss) {
  start(300);
  seat_both();
  ActionStream s;
  ASSERT_TRUE(white_->send(s.moves({"a1"})));
  black_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);
  EXPECT_EQ(r.reason, "timeout");
  EXPECT_EQ(r.detail, "Black did not move within 300 ms");
  EXPECT_NE(game_log().find("Waiting for B move...\nTimeout!!!!\nPlayer B has lost!!!\n"),
            std::string::npos);
}

TEST_F(MorrisServerTest, ClosingOnItsTurnLoses) {
  start();
  seat_both();
  ActionStream s;
  ASSERT_TRUE(white_->send(s.moves({"a1"})));
  ASSERT_TRUE(out_.wait_for("1. White", 3s));
  black_->close();
  white_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);
  EXPECT_EQ(r.reason, "disconnect");
  EXPECT_EQ(r.detail, "Black closed the connection on its turn");
}

TEST_F(MorrisServerTest, LeavingWhileTheOpponentThinksLosesAtOnce) {
  start(60000);
  seat_both();
  black_->close();
  white_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);
  EXPECT_EQ(r.detail, "Black closed the connection while waiting for its turn");
}

TEST_F(MorrisServerTest, StopAbortsAGameInProgress) {
  start(60000);
  seat_both();
  server_->stop();
  white_->read_to_eof(3s);  // the course protocol has no message for it: the server closes
  const GameRecord r = finished();
  EXPECT_EQ(r.outcome, Outcome::Ongoing);
  EXPECT_EQ(r.reason, "aborted");
  EXPECT_NE(out_.text().find("Result: Not finished (aborted: the server was stopped)\nRecord: "),
            std::string::npos)
      << out_.text();
}

TEST_F(MorrisServerTest, AWhiteThatLeavesBeforeBlackIsReplaced) {
  start();
  auto first = std::make_unique<TestClient>(white_port_);
  ASSERT_TRUE(out_.wait_for("White connected", 3s));
  first->close();
  ASSERT_TRUE(out_.wait_for("White left before Black connected", 3s));
  seat_both();
  ActionStream s;
  ASSERT_TRUE(white_->send("garbage"));
  white_->read_to_eof(3s);
  const GameRecord r = finished();
  EXPECT_EQ(r.reason, "illegal-move");
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_NE(r.events[0].find("left before Black connected"), std::string::npos);
}

TEST_F(MorrisServerTest, ServesTheNextGameAfterABrokenOne) {
  start(3000, 2);
  seat_both();
  ASSERT_TRUE(white_->send(std::string(1000, '\xFF')));
  white_->read_to_eof(3s);
  black_->read_to_eof(3s);
  ASSERT_TRUE(out_.wait_for("Record:", 10s));
  seat_both();
  ActionStream s;
  ASSERT_TRUE(black_->send(s.header()));
  black_->close();
  white_->read_to_eof(3s);
  ASSERT_TRUE(out_.wait_for("Black closed", 10s));
  thread_.join();
  const auto paths = server_->record_paths();
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(read_record(paths[0]).reason, "illegal-move");
  EXPECT_EQ(read_record(paths[1]).reason, "disconnect");
}

}  // namespace
}  // namespace arena
