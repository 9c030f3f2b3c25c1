// The course server playing Murus Gallicus over real sockets on 127.0.0.1: the exact bytes each
// client receives for a game won on the goal row and for an illegal Murus move (a wall moved),
// and what the record and the course-style log say.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "games/registry.hpp"
#include "referee/course_server.hpp"
#include "referee/record.hpp"
#include "support/files.hpp"
#include "support/sync_stream.hpp"
#include "support/temp_dir.hpp"
#include "support/test_client.hpp"

namespace arena {
namespace {

using testing::read_bytes;

using namespace std::chrono_literals;
using testing::SyncStream;
using testing::TempDir;
using testing::TestClient;

const std::string kWhiteHello =
    "WELCOME White\n"
    "MESSAGE Group 0, please wait for the opponent\n";
const std::string kBlackPreamble =
    "WELCOME Black\n"
    "MESSAGE Group 1, please wait for the opponent\n"
    "MESSAGE All players connected\n";

class MurusServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CourseServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.move_time_ms = 2000;
    o.warmup_ms = 20;
    o.records_dir = dir_.path() / "records";
    server_ = std::make_unique<CourseServer>(*find_game("murus"), o, log_);
    const std::uint16_t port = server_->listen();
    ASSERT_NE(port, 0);
    thread_ = std::thread([this, done = &returned_] {
      server_->run();
      done->set_value();
    });
    white_ = std::make_unique<TestClient>(port);
    ASSERT_EQ(white_->read_lines(2), kWhiteHello);
    black_ = std::make_unique<TestClient>(port);
    ASSERT_EQ(black_->read_lines(3), kBlackPreamble);
    ASSERT_EQ(white_->read_line(), "MESSAGE All players connected\n");
  }

  void TearDown() override {
    if (returned_future_.wait_for(5s) != std::future_status::ready) {
      ADD_FAILURE() << "run() did not return";
      server_->stop();
    }
    thread_.join();
  }

  std::filesystem::path the_record() {
    const auto paths = server_->record_paths();
    EXPECT_EQ(paths.size(), 1u);
    return paths.empty() ? std::filesystem::path{} : paths[0];
  }

  TempDir dir_;
  SyncStream log_;
  std::unique_ptr<CourseServer> server_;
  std::promise<void> returned_;
  std::future<void> returned_future_ = returned_.get_future();
  std::thread thread_;
  std::unique_ptr<TestClient> white_, black_;
};

TEST_F(MurusServerTest, AGameWonOnTheGoalRow) {
  // White builds towers up column 4 while Black empties A4; C4,N lands on A4 at ply 11. Black
  // writes lower case with CRLF, as some course clients did; moves are relayed in upper case.
  const char* moves[] = {"G4,N", "A4,SE", "G3,NE", "A8,S", "F4,N", "A7,S",
                         "E4,N", "A1,S",  "D4,N",  "A2,S", "C4,N"};
  for (int i = 0; i < 11; ++i) {
    const bool white = i % 2 == 0;
    TestClient& mover = white ? *white_ : *black_;
    TestClient& other = white ? *black_ : *white_;
    ASSERT_EQ(mover.read_line(), "YOUR_TURN\n") << moves[i];
    std::string line = std::string("MOVE ") + moves[i] + "\n";
    if (!white) {
      for (char& c : line) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
      line.insert(line.size() - 1, "\r");
    }
    ASSERT_TRUE(mover.send(line));
    ASSERT_EQ(mover.read_line(), "VALID_MOVE\n") << moves[i];
    ASSERT_EQ(other.read_line(), std::string("OPPONENT_MOVE ") + moves[i] + "\n");
  }
  EXPECT_EQ(white_->read_to_eof(), "VICTORY\n");
  EXPECT_EQ(black_->read_to_eof(), "DEFEAT\n");

  const auto path = the_record();
  const GameRecord r = read_record(path);
  EXPECT_EQ(r.game, "murus");
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);
  EXPECT_EQ(r.reason, "goal-row");
  EXPECT_EQ(r.detail, "White reached row A");
  ASSERT_EQ(r.moves.size(), 11u);
  EXPECT_EQ(r.moves[1].move, "A4,SE");
  const std::string log = read_bytes(path.parent_path() / "Group0_WhiteGroup1_Black.log");
  EXPECT_NE(log.find("MOVE A4,SE\nMoves: 2 | White pawns: 16 | Black pawns: 16\n"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("White wins - Black loses\n\nMATCH ENDED in 11 total moves\n"),
            std::string::npos)
      << log;
}

TEST_F(MurusServerTest, MovingAWallIsAnInvalidMove) {
  ASSERT_EQ(white_->read_line(), "YOUR_TURN\n");
  ASSERT_TRUE(white_->send("MOVE G4,N\n"));
  ASSERT_EQ(white_->read_line(), "VALID_MOVE\n");
  ASSERT_EQ(black_->read_lines(2), "OPPONENT_MOVE G4,N\nYOUR_TURN\n");
  ASSERT_TRUE(black_->send("MOVE A1,S\n"));
  ASSERT_EQ(black_->read_line(), "VALID_MOVE\n");
  ASSERT_EQ(white_->read_lines(2), "OPPONENT_MOVE A1,S\nYOUR_TURN\n");
  ASSERT_TRUE(white_->send("MOVE F4,N\n"));  // F4 is a White wall now
  EXPECT_EQ(white_->read_to_eof(), "MESSAGE You have sent an invalid move\nILLEGAL_MOVE\nDEFEAT\n");
  EXPECT_EQ(black_->read_to_eof(), "MESSAGE Your opponent has sent an invalid move\nVICTORY\n");

  const auto path = the_record();
  const GameRecord r = read_record(path);
  EXPECT_EQ(r.outcome, Outcome::BlackWins);
  EXPECT_EQ(r.reason, "illegal-move");
  EXPECT_NE(r.detail.find("F4 holds no White tower (walls never move)"), std::string::npos)
      << r.detail;
  const std::string log = read_bytes(path.parent_path() / "Group0_WhiteGroup1_Black.log");
  EXPECT_NE(log.find("MOVE F4,N\nINVALID MOVE\nWhite LOSE - Black WIN\n"), std::string::npos)
      << log;
}

}  // namespace
}  // namespace arena
