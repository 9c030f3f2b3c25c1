#pragma once
// The one game record format (JSON) that every arena referee writes and every tool reads.
// See docs/records.md.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/side.hpp"

namespace arena {

inline constexpr int kRecordVersion = 1;

struct MoveRecord {
  int ply = 0;  // 1-based
  Side side = Side::White;
  std::string move;          // canonical wire text
  std::int64_t time_ms = 0;  // as measured by the referee
  // CPU time (user + system) the mover's processes used for this move, where the referee could
  // measure it (an agent in a sandbox's cgroup, a Paper Soccer bot).
  std::optional<std::int64_t> cpu_ms = {};
  // What arena's own engine thought of the move, where it played in-process (`arena play`).
  std::optional<int> eval = {};   // from the mover's side, engine units
  std::optional<int> depth = {};  // completed search depth
  // What the referee ignored in the mover's message while accepting it, as the course's own
  // referee did (a Morris removal named for a move that closes no mill).
  std::optional<std::string> note = {};
};

struct PlayerRecord {
  std::string name;
  std::string address;  // peer address, command line or "local"
};

struct GameRecord {
  std::string game;
  nlohmann::json settings = nlohmann::json::object();
  PlayerRecord white, black;
  std::string started_at, ended_at;  // ISO 8601, UTC
  std::vector<MoveRecord> moves;
  Outcome outcome = Outcome::Ongoing;
  std::string reason;  // stable code: no-stones, move-limit, timeout, illegal-move, disconnect...
  std::string detail;  // one sentence for people
  std::vector<std::string> events;  // protocol trouble and other things worth knowing
  // The agents' sandbox: protections and limits in force, and each side's measured use (peak
  // memory, CPU, which limit it broke). Empty when the agents were not sandboxed.
  nlohmann::json sandbox = nlohmann::json::object();

  PlayerRecord& player(Side s) { return s == Side::White ? white : black; }
};

nlohmann::json to_json(const GameRecord& r);
// Throws std::runtime_error with a clear message when the document is not a valid record.
GameRecord record_from_json(const nlohmann::json& j);

// Writes atomically (temporary file, fsync, rename): a crash never leaves half a record.
// Without `durable` the fsync is skipped (readers still never see half a file). `mode`: the
// file's permissions from its first byte (0600 for a secret).
void write_file_atomically(const std::filesystem::path& path, const std::string& content,
                           bool durable = true, unsigned mode = 0644);
void write_record(const std::filesystem::path& path, const GameRecord& r);

// The result of a record rewritten while its game is played: winner "ongoing", reason below.
inline constexpr const char* kInProgressReason = "in-progress";
// Rewrites the record of a game in progress (after every move), so viewers can follow it live.
// Every referee calls this; the final write_record replaces it. Never throws: a viewer's
// convenience must not stop a game. Gives the error, or "" when written.
std::string write_live_record(const std::filesystem::path& path, GameRecord r);
GameRecord read_record(const std::filesystem::path& path);

// "White wins (no-stones: Black has no stones left)", "Draw (...)", "Not finished (aborted: ...)",
// "Game in progress".
std::string result_line(const GameRecord& r);
// Writes a finished game's record, and the referee's log beside it, then reports on `out`
// "Result: <result_line>" and "Record: <path>". A failure to write is reported there, not thrown:
// a server goes on to its next game. Gives whether both files were written.
bool save_finished_game(const GameRecord& r, const std::filesystem::path& record_path,
                        const std::filesystem::path& log_path, const std::string& log_text,
                        std::ostream& out);

std::string utc_now_iso8601();

// A referee told to stop a game after a number of plies (a hand-in's smoke game) ends it as a
// draw with this reason and detail: nobody's fault.
inline constexpr const char* kPlyLimitReason = "ply-limit";
std::string ply_limit_detail(int plies);  // "stopped after 20 plies (smoke game)"

}  // namespace arena
