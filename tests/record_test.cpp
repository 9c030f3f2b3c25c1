#include "referee/record.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace arena {
namespace {

GameRecord sample() {
  GameRecord r;
  r.game = "fission";
  r.settings = {{"move_time_ms", 1000}};
  r.white = {"Group 0", "127.0.0.1:5000"};
  r.black = {"Group 1", "127.0.0.1:5001"};
  r.started_at = "2026-11-22T10:00:00Z";
  r.ended_at = "2026-11-22T10:01:00Z";
  r.moves = {{1, Side::White, "B4,NE", 3}, {2, Side::Black, "B5,W", 12}};
  r.outcome = Outcome::BlackWins;
  r.reason = "timeout";
  r.detail = "White did not move within 1000 ms";
  r.events = {"refused connection from 127.0.0.1:6000: a game is in progress"};
  return r;
}

TEST(Record, JsonRoundTrip) {
  const GameRecord r = sample();
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j.at("format"), "arena-game-record");
  EXPECT_EQ(j.at("result").at("winner"), "black");
  EXPECT_EQ(j.at("moves").at(1).at("side"), "black");
  const GameRecord back = record_from_json(j);
  EXPECT_EQ(to_json(back), j);
}

TEST(Record, FileRoundTripIsAtomic) {
  const auto dir = std::filesystem::temp_directory_path() / "arena_record_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "game.json";
  write_record(path, sample());
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  EXPECT_EQ(to_json(read_record(path)), to_json(sample()));
  std::filesystem::remove_all(dir);
}

TEST(Record, RejectsWhatIsNotARecord) {
  nlohmann::json j = to_json(sample());
  j["format"] = "something-else";
  EXPECT_THROW(record_from_json(j), std::runtime_error);
  j = to_json(sample());
  j["result"]["winner"] = "nobody";
  EXPECT_THROW(record_from_json(j), std::runtime_error);
  j = to_json(sample());
  j.erase("moves");
  EXPECT_THROW(record_from_json(j), std::runtime_error);
  j = to_json(sample());
  j["version"] = 99;
  EXPECT_THROW(record_from_json(j), std::runtime_error);
}

TEST(Record, ReadingGarbageGivesAClearError) {
  const auto path = std::filesystem::temp_directory_path() / "arena_record_garbage.json";
  std::ofstream(path) << "{ not json";
  try {
    read_record(path);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos);
  }
  std::filesystem::remove(path);
  EXPECT_THROW(read_record(path), std::runtime_error);
}

}  // namespace
}  // namespace arena
