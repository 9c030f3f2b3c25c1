// The course server over real sockets on 127.0.0.1: exact bytes each client receives (as in
// shared/fixtures/fission-server), clean closes, run() returning, and what the record says.
#include "referee/course_server.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "games/registry.hpp"
#include "referee/record.hpp"
#include "support/replay.hpp"
#include "support/sync_stream.hpp"
#include "support/temp_dir.hpp"
#include "support/test_client.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::SyncStream;
using testing::TempDir;
using testing::TestClient;
using Clock = std::chrono::steady_clock;

constexpr int kWarmupMs = 50;
constexpr int kMoveTimeMs = 400;

const std::string kWhiteHello =
    "WELCOME White\n"
    "MESSAGE Group 0, please wait for the opponent\n";
const std::string kBlackHello =
    "WELCOME Black\n"
    "MESSAGE Group 1, please wait for the opponent\n";
const std::string kAllIn = "MESSAGE All players connected\n";
const std::string kWhitePreamble = kWhiteHello + kAllIn;
const std::string kBlackPreamble = kBlackHello + kAllIn;

// A game of two moves a player that ends in a tie at the move limit, as in
// fission_movelimit_tm3_tie: its moves and what each side receives after its preamble.
const std::vector<std::string> kTiedGame = {"B4,NE", "B5,W", "A5,E", "B1,S"};
const std::string kWhiteTiedGame =
    "YOUR_TURN\nVALID_MOVE\nOPPONENT_MOVE B5,W\nYOUR_TURN\nVALID_MOVE\nOPPONENT_MOVE B1,S\nTIE\n";
const std::string kBlackTiedGame =
    "OPPONENT_MOVE B4,NE\nYOUR_TURN\nVALID_MOVE\nOPPONENT_MOVE A5,E\nYOUR_TURN\nVALID_MOVE\nTIE\n";

const std::string kYouSentInvalid =
    "MESSAGE You have sent an invalid move\n"
    "ILLEGAL_MOVE\n"
    "DEFEAT\n";
const std::string kOpponentSentInvalid =
    "MESSAGE Your opponent has sent an invalid move\n"
    "VICTORY\n";

const GameInfo& fission() {
  return *find_game("fission");
}

std::string address_of(const TestClient& c) {
  return "127.0.0.1:" + std::to_string(c.local_port());
}

// `mover` plays `move`: the server confirms it and passes the turn, with the move, to `other`.
void play_and_pass(TestClient& mover, TestClient& other, const std::string& move) {
  ASSERT_TRUE(mover.send("MOVE " + move + "\n"));
  EXPECT_EQ(mover.read_line(), "VALID_MOVE\n");
  EXPECT_EQ(other.read_lines(2), "OPPONENT_MOVE " + move + "\nYOUR_TURN\n");
}

struct Players {
  std::unique_ptr<TestClient> white, black;
};

class CourseServerTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (thread_.joinable()) {
      server_->stop();
      thread_.join();
    }
  }

  void start(int moves_per_player = 0, int warmup_ms = kWarmupMs, int games = 1) {
    CourseServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.move_time_ms = kMoveTimeMs;
    o.warmup_ms = warmup_ms;
    o.games = games;
    if (moves_per_player > 0) o.rules.moves_per_player = moves_per_player;
    o.records_dir = dir_.path() / "records";
    server_ = std::make_unique<CourseServer>(fission(), o, log_);
    port_ = server_->listen();
    ASSERT_NE(port_, 0);
    auto done = std::make_shared<std::promise<void>>();
    returned_ = done->get_future();
    thread_ = std::thread([this, done] {
      try {
        server_->run();
        done->set_value();
      } catch (...) {
        done->set_exception(std::current_exception());
      }
    });
  }

  // run() must return by itself once the games are over; a hang fails the test, not the suite.
  void expect_run_returns(std::chrono::milliseconds timeout = 5s) {
    if (returned_.wait_for(timeout) != std::future_status::ready) {
      ADD_FAILURE() << "run() did not return within " << timeout.count() << " ms; stopping it";
      server_->stop();
    }
    thread_.join();
    EXPECT_NO_THROW(returned_.get());
  }

  // The tied game from Black's first move on: B5,W, A5,E and B1,S. As in
  // fission_movelimit_tm3_tie, the last mover gets VALID_MOVE, the other the move, then TIE.
  void finish_tied_game(TestClient& w, TestClient& b) {
    ASSERT_NO_FATAL_FAILURE(play_and_pass(b, w, "B5,W"));
    ASSERT_NO_FATAL_FAILURE(play_and_pass(w, b, "A5,E"));
    ASSERT_TRUE(b.send("MOVE B1,S\n"));
    EXPECT_EQ(b.read_to_eof(), "VALID_MOVE\nTIE\n");
    EXPECT_EQ(w.read_to_eof(), "OPPONENT_MOVE B1,S\nTIE\n");
    expect_run_returns();
  }

  // Connects White then Black, checking each greeting before the next client connects.
  Players connect_both() {
    Players p;
    p.white = std::make_unique<TestClient>(port_);
    EXPECT_EQ(p.white->read_lines(2), kWhiteHello);
    p.black = std::make_unique<TestClient>(port_);
    EXPECT_EQ(p.black->read_lines(3), kBlackPreamble);
    EXPECT_EQ(p.white->read_line(), kAllIn);
    return p;
  }

  // Both connected, and White told it is its turn (after the warm-up).
  Players connect_both_to_first_turn() {
    Players p = connect_both();
    EXPECT_EQ(p.white->read_line(), "YOUR_TURN\n");
    return p;
  }

  // The only record written (throws, failing the test, if there is not exactly one); the
  // course-style log must be next to it.
  GameRecord the_record() {
    const auto paths = server_->record_paths();
    if (paths.size() != 1) throw std::runtime_error(std::to_string(paths.size()) + " records");
    auto log = paths[0];
    EXPECT_TRUE(std::filesystem::exists(log.replace_extension(".log"))) << log;
    return read_record(paths[0]);
  }

  // Checks the players, the moves (legal, in turn, timed within the limit) and the result.
  static void expect_record(const GameRecord& r, const TestClient& white, const TestClient& black,
                            const std::vector<std::string>& moves, Outcome outcome,
                            const std::string& reason, int white_group = 0, int black_group = 1) {
    EXPECT_EQ(r.game, "fission");
    EXPECT_EQ(r.white.name, "Group " + std::to_string(white_group));
    EXPECT_EQ(r.black.name, "Group " + std::to_string(black_group));
    EXPECT_EQ(r.white.address, address_of(white));
    EXPECT_EQ(r.black.address, address_of(black));
    EXPECT_FALSE(r.started_at.empty());
    EXPECT_FALSE(r.ended_at.empty());
    EXPECT_EQ(r.settings.value("move_time_ms", 0), kMoveTimeMs);
    std::vector<std::string> played;
    for (const MoveRecord& m : r.moves) {
      played.push_back(m.move);
      EXPECT_GE(m.time_ms, 0) << m.move;
      EXPECT_LE(m.time_ms, kMoveTimeMs) << m.move;
    }
    EXPECT_EQ(played, moves);
    RuleOptions rules;
    rules.moves_per_player = r.settings.value("moves_per_player", 50);
    testing::replay(r, rules);
    EXPECT_EQ(outcome_key(r.outcome), outcome_key(outcome));
    EXPECT_EQ(r.reason, reason);
    EXPECT_FALSE(r.detail.empty());
  }

  TempDir dir_;
  SyncStream log_;
  std::unique_ptr<CourseServer> server_;
  std::uint16_t port_ = 0;
  std::thread thread_;
  std::future<void> returned_;
};

TEST_F(CourseServerTest, ShortGameEndsAtTheMoveLimitAsATie) {
  start(/*moves_per_player=*/2);
  Players p = connect_both_to_first_turn();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  ASSERT_NO_FATAL_FAILURE(play_and_pass(w, b, "B4,NE"));
  ASSERT_NO_FATAL_FAILURE(finish_tied_game(w, b));

  EXPECT_EQ(w.received(), kWhitePreamble + kWhiteTiedGame);
  EXPECT_EQ(b.received(), kBlackPreamble + kBlackTiedGame);
  const GameRecord r = the_record();
  expect_record(r, *p.white, *p.black, kTiedGame, Outcome::Draw, "move-limit");
  EXPECT_EQ(r.settings.value("moves_per_player", 0), 2);
  EXPECT_TRUE(r.events.empty());
  EXPECT_TRUE(std::filesystem::exists(server_->run_directory() / "Group0_WhiteGroup1_Black.log"));
}

TEST_F(CourseServerTest, PreambleIsExactlyThreeLinesAndTheFirstTurnWaitsForTheWarmup) {
  constexpr int kWarmup = 300;
  start(0, kWarmup);
  TestClient w(port_);
  EXPECT_EQ(w.read_lines(2), kWhiteHello);
  EXPECT_TRUE(w.silent_for(150ms)) << "White got more before Black connected";
  TestClient b(port_);
  EXPECT_EQ(b.read_lines(3), kBlackPreamble);
  const auto all_in = Clock::now();
  EXPECT_EQ(w.read_line(), kAllIn);
  EXPECT_EQ(w.read_line(), "YOUR_TURN\n");
  EXPECT_GE(Clock::now() - all_in, std::chrono::milliseconds(kWarmup - 20));
  EXPECT_TRUE(b.silent_for(50ms));
  w.close();  // on its turn: loses as if it had sent an invalid move
  EXPECT_EQ(b.read_to_eof(), kOpponentSentInvalid);
  expect_run_returns();
  EXPECT_EQ(w.received(), kWhitePreamble + "YOUR_TURN\n");
  EXPECT_EQ(b.received(), kBlackPreamble + kOpponentSentInvalid);
}

TEST_F(CourseServerTest, LowerCaseCrlfAndSpacesAreAcceptedAndRelayedInUpperCase) {
  start(/*moves_per_player=*/2);
  Players p = connect_both_to_first_turn();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  ASSERT_TRUE(w.send("move b4,ne\r\n"));
  EXPECT_EQ(w.read_line(), "VALID_MOVE\n");
  EXPECT_EQ(b.read_lines(2), "OPPONENT_MOVE B4,NE\nYOUR_TURN\n");
  ASSERT_TRUE(b.send("  Move   b5,W  \r\n"));
  EXPECT_EQ(b.read_line(), "VALID_MOVE\n");
  EXPECT_EQ(w.read_lines(2), "OPPONENT_MOVE B5,W\nYOUR_TURN\n");
  ASSERT_TRUE(w.send("MOVE   a5,e\r\n"));  // as in fission_lowercase_crlf_extra
  EXPECT_EQ(w.read_line(), "VALID_MOVE\n");
  EXPECT_EQ(b.read_lines(2), "OPPONENT_MOVE A5,E\nYOUR_TURN\n");
  ASSERT_TRUE(b.send("mOvE b1,s\n"));
  EXPECT_EQ(b.read_to_eof(), "VALID_MOVE\nTIE\n");
  EXPECT_EQ(w.read_to_eof(), "OPPONENT_MOVE B1,S\nTIE\n");
  expect_run_returns();
  expect_record(the_record(), *p.white, *p.black, kTiedGame, Outcome::Draw, "move-limit");
}

// The offender's and the other side's bytes after a bad line from White on its first turn.
void expect_white_loses_first_turn(TestClient& w, TestClient& b) {
  EXPECT_EQ(w.read_to_eof(), kYouSentInvalid);
  EXPECT_EQ(b.read_to_eof(), kOpponentSentInvalid);
  EXPECT_EQ(w.received(), kWhitePreamble + "YOUR_TURN\n" + kYouSentInvalid);
  EXPECT_EQ(b.received(), kBlackPreamble + kOpponentSentInvalid);
}

// A line that loses the game for its sender, and what the record's detail must then name.
struct BadLine {
  std::string name;
  std::string line;
  std::string in_detail;
  friend void PrintTo(const BadLine& l, std::ostream* out) { *out << l.name; }
};

class CourseServerBadLineTest : public CourseServerTest,
                                public ::testing::WithParamInterface<BadLine> {};

// White sends it as its first move.
class CourseServerFirstBadLine : public CourseServerBadLineTest {};

TEST_P(CourseServerFirstBadLine, LosesTheGame) {
  start();
  Players p = connect_both_to_first_turn();
  // A long line: the server may stop reading long before the end, and need not read the rest.
  p.white->send(GetParam().line, 2s);
  expect_white_loses_first_turn(*p.white, *p.black);
  expect_run_returns();
  const GameRecord r = the_record();
  expect_record(r, *p.white, *p.black, {}, Outcome::BlackWins, "illegal-move");
  EXPECT_NE(r.detail.find(GetParam().in_detail), std::string::npos) << r.detail;
  EXPECT_LT(r.detail.size(), 300u) << "the record should not copy a long line";
}

INSTANTIATE_TEST_SUITE_P(
    Lines, CourseServerFirstBadLine,
    ::testing::Values(BadLine{"Garbage", "HELLO THERE\n", "unreadable line 'HELLO THERE'"},
                      // fission_illegal_empty_cell
                      BadLine{"MoveFromAnEmptyCell", "MOVE A1,N\n", "illegal move 'A1,N'"},
                      // fission_forbidden_direction: C4 is taken
                      BadLine{"MoveIntoABlockedDirection", "MOVE C3,E\n", "illegal move 'C3,E'"},
                      // The course server relayed this as B4,NE,XYZ; the spec makes it invalid.
                      BadLine{"ExtraCommaField", "move b4,ne,xyz\r\n", "illegal move 'B4,NE,XYZ'"},
                      BadLine{"OneMegabyteLine", std::string(1 << 20, 'A') + "\n",
                              "sent a line longer than"}),
    [](const ::testing::TestParamInfo<BadLine>& info) { return info.param.name; });

TEST_F(CourseServerTest, SpaceAfterTheCommaIsAnInvalidMoveForBlackToo) {
  start();
  Players p = connect_both_to_first_turn();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  ASSERT_NO_FATAL_FAILURE(play_and_pass(w, b, "B4,NE"));
  ASSERT_TRUE(b.send("MOVE B5, W\n"));
  EXPECT_EQ(b.read_to_eof(), kYouSentInvalid);
  EXPECT_EQ(w.read_to_eof(), kOpponentSentInvalid);
  expect_run_returns();
  EXPECT_EQ(w.received(), kWhitePreamble + "YOUR_TURN\nVALID_MOVE\n" + kOpponentSentInvalid);
  EXPECT_EQ(b.received(), kBlackPreamble + "OPPONENT_MOVE B4,NE\nYOUR_TURN\n" + kYouSentInvalid);
  expect_record(the_record(), *p.white, *p.black, {"B4,NE"}, Outcome::WhiteWins, "illegal-move");
}

TEST_F(CourseServerTest, ClientClosingOnItsTurnLoses) {
  start();
  Players p = connect_both_to_first_turn();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  ASSERT_NO_FATAL_FAILURE(play_and_pass(w, b, "B4,NE"));
  b.close();
  EXPECT_EQ(w.read_to_eof(), kOpponentSentInvalid);  // what the course server said
  expect_run_returns();
  EXPECT_EQ(w.received(), kWhitePreamble + "YOUR_TURN\nVALID_MOVE\n" + kOpponentSentInvalid);
  const GameRecord r = the_record();
  expect_record(r, *p.white, *p.black, {"B4,NE"}, Outcome::WhiteWins, "disconnect");
  EXPECT_NE(r.detail.find("on its turn"), std::string::npos) << r.detail;
}

TEST_F(CourseServerTest, ClientClosingWhileWaitingForItsTurnLoses) {
  start();
  Players p = connect_both_to_first_turn();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  b.close();  // White is thinking
  EXPECT_EQ(w.read_to_eof(), "MESSAGE Opponent disconnected\nVICTORY\n");
  expect_run_returns();
  EXPECT_EQ(w.received(), kWhitePreamble + "YOUR_TURN\nMESSAGE Opponent disconnected\nVICTORY\n");
  const GameRecord r = the_record();
  expect_record(r, *p.white, *p.black, {}, Outcome::WhiteWins, "disconnect");
  EXPECT_NE(r.detail.find("waiting"), std::string::npos) << r.detail;
}

TEST_F(CourseServerTest, ClientLeavingDuringTheWarmupLoses) {
  start(0, /*warmup_ms=*/3000);
  Players p = connect_both();
  p.black->close();
  const auto t0 = Clock::now();
  EXPECT_EQ(p.white->read_to_eof(), "MESSAGE Opponent disconnected\nVICTORY\n");
  EXPECT_LT(Clock::now() - t0, 2s) << "the server waited for the warm-up to end";
  expect_run_returns();
  expect_record(the_record(), *p.white, *p.black, {}, Outcome::WhiteWins, "disconnect");
}

TEST_F(CourseServerTest, ClientThatNeverAnswersTimesOut) {
  start();
  Players p = connect_both_to_first_turn();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  ASSERT_NO_FATAL_FAILURE(play_and_pass(w, b, "B4,NE"));
  const auto turn = Clock::now();
  // As in fission_timeout (there for White).
  EXPECT_EQ(b.read_to_eof(), "TIMEOUT\nDEFEAT\n");
  const auto waited = Clock::now() - turn;
  EXPECT_GE(waited, std::chrono::milliseconds(kMoveTimeMs - 20));
  EXPECT_LT(waited, std::chrono::milliseconds(kMoveTimeMs + 1000));
  EXPECT_EQ(w.read_to_eof(), "MESSAGE Opponent timeout\nVICTORY\n");
  expect_run_returns();
  EXPECT_EQ(w.received(), kWhitePreamble +
                              "YOUR_TURN\nVALID_MOVE\n"
                              "MESSAGE Opponent timeout\nVICTORY\n");
  EXPECT_EQ(b.received(), kBlackPreamble + "OPPONENT_MOVE B4,NE\nYOUR_TURN\nTIMEOUT\nDEFEAT\n");
  const GameRecord r = the_record();
  expect_record(r, *p.white, *p.black, {"B4,NE"}, Outcome::WhiteWins, "timeout");
}

TEST_F(CourseServerTest, ClientThatConnectsAndSendsNothingTimesOutOnItsTurn) {
  start();
  TestClient w(port_);  // never reads nor writes until the end
  ASSERT_TRUE(log_.wait_for("connected from", 2s));
  TestClient b(port_);
  EXPECT_EQ(b.read_lines(3), kBlackPreamble);
  EXPECT_EQ(b.read_to_eof(std::chrono::milliseconds(kWarmupMs + kMoveTimeMs + 2000)),
            "MESSAGE Opponent timeout\nVICTORY\n");
  EXPECT_EQ(w.read_to_eof(), kWhitePreamble + "YOUR_TURN\nTIMEOUT\nDEFEAT\n");
  expect_run_returns();
  const GameRecord r = the_record();
  expect_record(r, w, b, {}, Outcome::BlackWins, "timeout");
  EXPECT_NE(r.detail.find("White"), std::string::npos) << r.detail;
}

TEST_F(CourseServerTest, MovesSentBeforeYourTurnAreKeptForTheTurn) {
  start(/*moves_per_player=*/2, /*warmup_ms=*/300);
  Players p = connect_both();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  // During the warm-up: White sends its first two moves at once, Black its first one.
  ASSERT_TRUE(w.send("MOVE B4,NE\nMOVE A5,E\n"));
  ASSERT_TRUE(b.send("MOVE B5,W\n"));
  EXPECT_EQ(w.read_lines(5), "YOUR_TURN\nVALID_MOVE\nOPPONENT_MOVE B5,W\nYOUR_TURN\nVALID_MOVE\n");
  EXPECT_EQ(b.read_lines(4), "OPPONENT_MOVE B4,NE\nYOUR_TURN\nVALID_MOVE\nOPPONENT_MOVE A5,E\n");
  // Like the real client that answers every OPPONENT_MOVE without waiting for YOUR_TURN.
  ASSERT_TRUE(b.send("MOVE B1,S\n"));
  EXPECT_EQ(b.read_to_eof(), "YOUR_TURN\nVALID_MOVE\nTIE\n");
  EXPECT_EQ(w.read_line(), "OPPONENT_MOVE B1,S\n");
  w.send("MOVE A8,SW\n");  // answers the last move too: must not cost it its TIE
  EXPECT_EQ(w.read_to_eof(), "TIE\n");
  expect_run_returns();
  EXPECT_EQ(w.received(), kWhitePreamble + kWhiteTiedGame);
  EXPECT_EQ(b.received(), kBlackPreamble + kBlackTiedGame);
  const GameRecord r = the_record();
  expect_record(r, w, b, kTiedGame, Outcome::Draw, "move-limit");
  // Timed from YOUR_TURN: the moves were already there.
  for (int i = 0; i < 3 && i < static_cast<int>(r.moves.size()); ++i)
    EXPECT_LT(r.moves[i].time_ms, 100) << r.moves[i].move;
}

// A bad line that Black sends during White's turn loses only on Black's own turn.
class CourseServerEarlyBadLine : public CourseServerBadLineTest {};

TEST_P(CourseServerEarlyBadLine, CountsAsAnInvalidMoveOnItsTurn) {
  start();
  Players p = connect_both_to_first_turn();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  ASSERT_TRUE(b.send(GetParam().line));
  EXPECT_TRUE(w.silent_for(100ms)) << "White's turn was cut short";
  ASSERT_TRUE(w.send("MOVE B4,NE\n"));
  EXPECT_EQ(w.read_to_eof(), "VALID_MOVE\n" + kOpponentSentInvalid);
  EXPECT_EQ(b.read_to_eof(), "OPPONENT_MOVE B4,NE\nYOUR_TURN\n" + kYouSentInvalid);
  expect_run_returns();
  const GameRecord r = the_record();
  expect_record(r, w, b, {"B4,NE"}, Outcome::WhiteWins, "illegal-move");
  EXPECT_NE(r.detail.find(GetParam().in_detail), std::string::npos) << r.detail;
}

INSTANTIATE_TEST_SUITE_P(
    Lines, CourseServerEarlyBadLine,
    ::testing::Values(BadLine{"Garbage", "I AM NOT A MOVE\n", "unreadable line 'I AM NOT A MOVE'"},
                      BadLine{"OverlongLine", std::string(5000, 'x') + "\n",
                              "sent a line longer than"}),
    [](const ::testing::TestParamInfo<BadLine>& info) { return info.param.name; });

TEST_F(CourseServerTest, ThirdConnectionIsTurnedAwayAndTheGameGoesOn) {
  start(/*moves_per_player=*/2);
  Players p = connect_both_to_first_turn();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  ASSERT_NO_FATAL_FAILURE(play_and_pass(w, b, "B4,NE"));
  {
    TestClient third(port_);
    third.send("MOVE B5,W\n");  // tries to play for Black
    EXPECT_EQ(third.read_to_eof(), "MESSAGE A game is in progress, try again later\n");
    ASSERT_TRUE(log_.wait_for("Refused a connection", 1s));
  }
  EXPECT_TRUE(b.silent_for(50ms));
  ASSERT_NO_FATAL_FAILURE(finish_tied_game(w, b));
  EXPECT_EQ(w.received(), kWhitePreamble + kWhiteTiedGame);
  const GameRecord r = the_record();
  expect_record(r, w, b, kTiedGame, Outcome::Draw, "move-limit");
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_NE(r.events[0].find("refused connection from 127.0.0.1:"), std::string::npos)
      << r.events[0];
}

TEST_F(CourseServerTest, ClientLeavingBeforeTheOpponentComesGivesUpItsSeat) {
  start(/*moves_per_player=*/1);
  std::string first_address;
  {
    TestClient first(port_);
    EXPECT_EQ(first.read_lines(2), kWhiteHello);
    first_address = address_of(first);
  }
  ASSERT_TRUE(log_.wait_for("left before the game started", 2s));
  TestClient w(port_);
  EXPECT_EQ(w.read_lines(2), "WELCOME White\nMESSAGE Group 1, please wait for the opponent\n");
  TestClient b(port_);
  EXPECT_EQ(b.read_lines(3),
            "WELCOME Black\nMESSAGE Group 2, please wait for the opponent\n" + kAllIn);
  EXPECT_EQ(w.read_lines(2), kAllIn + "YOUR_TURN\n");
  ASSERT_NO_FATAL_FAILURE(play_and_pass(w, b, "B4,NE"));
  ASSERT_TRUE(b.send("MOVE B5,W\n"));
  EXPECT_EQ(b.read_to_eof(), "VALID_MOVE\nTIE\n");
  EXPECT_EQ(w.read_to_eof(), "OPPONENT_MOVE B5,W\nTIE\n");
  expect_run_returns();
  const auto paths = server_->record_paths();
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths[0].filename(), "Group1_WhiteGroup2_Black.json");
  const GameRecord r = read_record(paths[0]);
  expect_record(r, w, b, {"B4,NE", "B5,W"}, Outcome::Draw, "move-limit", 1, 2);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0], "Group 0 (" + first_address + ") left before the game started");
}

TEST_F(CourseServerTest, StopAbortsAGameInProgress) {
  start();
  Players p = connect_both_to_first_turn();
  std::thread([this] { server_->stop(); }).join();  // from another thread
  const std::string bye = "MESSAGE The server is stopping: game aborted\n";
  EXPECT_EQ(p.white->read_to_eof(), bye);
  EXPECT_EQ(p.black->read_to_eof(), bye);
  expect_run_returns();
  const GameRecord r = the_record();
  expect_record(r, *p.white, *p.black, {}, Outcome::Ongoing, "aborted");
  // Not a win for either side: the server says the game did not finish.
  EXPECT_NE(log_.text().find("Result: Not finished (aborted: the server was stopped)\nRecord: "),
            std::string::npos)
      << log_.text();
}

TEST_F(CourseServerTest, StopWhileWaitingForPlayersWritesNoRecord) {
  start();
  TestClient w(port_);
  EXPECT_EQ(w.read_lines(2), kWhiteHello);
  server_->stop();
  EXPECT_EQ(w.read_to_eof(), "");
  expect_run_returns();
  EXPECT_TRUE(server_->record_paths().empty());
}

TEST_F(CourseServerTest, ServesTheGivenNumberOfGamesThenReturns) {
  start(0, kWarmupMs, /*games=*/2);
  for (int game = 0; game < 2; ++game) {
    const std::string wg = std::to_string(2 * game), bg = std::to_string(2 * game + 1);
    TestClient w(port_);
    EXPECT_EQ(w.read_lines(2),
              "WELCOME White\nMESSAGE Group " + wg + ", please wait for the opponent\n");
    TestClient b(port_);
    EXPECT_EQ(b.read_lines(3),
              "WELCOME Black\nMESSAGE Group " + bg + ", please wait for the opponent\n" + kAllIn);
    EXPECT_EQ(w.read_lines(2), kAllIn + "YOUR_TURN\n");
    ASSERT_TRUE(w.send("PASS\n"));
    EXPECT_EQ(w.read_to_eof(), kYouSentInvalid);
    EXPECT_EQ(b.read_to_eof(), kOpponentSentInvalid);
  }
  expect_run_returns();
  const auto paths = server_->record_paths();
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(paths[0].filename(), "Group0_WhiteGroup1_Black.json");
  EXPECT_EQ(paths[1].filename(), "Group2_WhiteGroup3_Black.json");
  for (const auto& path : paths) {
    const GameRecord r = read_record(path);
    EXPECT_EQ(r.outcome, Outcome::BlackWins);
    EXPECT_EQ(r.reason, "illegal-move");
    EXPECT_TRUE(r.events.empty());
  }
}

}  // namespace
}  // namespace arena

namespace arena {
namespace {

// Viewers follow games live: the record is on disk from the start of the game, rewritten after
// every move with result "ongoing" / "in-progress", and replaced by the final one at the end.
TEST_F(CourseServerTest, TheRecordIsRewrittenAfterEveryMoveWhileTheGameIsPlayed) {
  start(/*moves_per_player=*/2);
  Players p = connect_both();
  TestClient& w = *p.white;
  TestClient& b = *p.black;
  const auto path = server_->run_directory() / "Group0_WhiteGroup1_Black.json";
  EXPECT_EQ(w.read_line(), "YOUR_TURN\n");
  {
    const GameRecord r = read_record(path);
    EXPECT_EQ(r.outcome, Outcome::Ongoing);
    EXPECT_EQ(r.reason, kInProgressReason);
    EXPECT_TRUE(r.moves.empty());
    EXPECT_EQ(r.white.name, "Group 0");
    EXPECT_EQ(r.black.name, "Group 1");
    EXPECT_FALSE(r.started_at.empty());
    EXPECT_TRUE(r.ended_at.empty());
  }
  ASSERT_TRUE(w.send("MOVE B4,NE\n"));
  EXPECT_EQ(w.read_line(), "VALID_MOVE\n");  // sent after the record was rewritten
  {
    const GameRecord r = read_record(path);
    EXPECT_EQ(r.reason, kInProgressReason);
    ASSERT_EQ(r.moves.size(), 1u);
    EXPECT_EQ(r.moves[0].move, "B4,NE");
    EXPECT_EQ(r.moves[0].side, Side::White);
  }
  EXPECT_EQ(b.read_lines(2), "OPPONENT_MOVE B4,NE\nYOUR_TURN\n");
  ASSERT_TRUE(b.send("MOVE B5,W\n"));
  EXPECT_EQ(b.read_line(), "VALID_MOVE\n");
  EXPECT_EQ(read_record(path).moves.size(), 2u);
  EXPECT_EQ(w.read_lines(2), "OPPONENT_MOVE B5,W\nYOUR_TURN\n");
  ASSERT_NO_FATAL_FAILURE(play_and_pass(w, b, "A5,E"));
  ASSERT_TRUE(b.send("MOVE B1,S\n"));
  EXPECT_EQ(b.read_to_eof(), "VALID_MOVE\nTIE\n");
  expect_run_returns();
  const GameRecord r = read_record(path);
  EXPECT_EQ(r.outcome, Outcome::Draw);
  EXPECT_EQ(r.reason, "move-limit");
  EXPECT_EQ(r.moves.size(), 4u);
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

}  // namespace
}  // namespace arena
