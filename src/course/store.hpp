#pragma once
// Everything a course keeps in its database, as operations: people, credentials, sessions,
// hand-ins, games and the event log. Each operation is one transaction; one mutex makes the
// store safe to share between the server's threads (SQLite serializes writers anyway).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "course/sqlite.hpp"

namespace arena::course {

enum class Role { Student, Staff };
std::string_view role_name(Role r);
std::optional<Role> parse_role(std::string_view s);

struct User {
  std::int64_t id = 0;
  std::string login, name;
  Role role = Role::Student;
  bool disabled = false;
  bool must_change_password = false;
  std::string password_hash;  // empty: none set yet
  nlohmann::json extra = nlohmann::json::object();
};

struct Session {
  User user;
  std::string csrf;
};

// A hand-in's states, in order: queued, building, checking, then accepted or rejected.
struct Submission {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string login, name;
  std::string created;  // UTC, ISO 8601
  std::string file_hash, file_name;
  std::int64_t size = 0;
  std::string state, stage, reason;
  std::optional<std::string> verdict;  // verdict.json (its owner's and staff's only)
  std::string build_log;
  std::optional<std::string> grade;  // JSON
  bool excluded = false;
  std::optional<std::string> checked;  // when the verdict came
};

// What a student may still hand in (SubmissionLimits), checked with the insert in one transaction.
struct SubmissionLimits {
  int waiting = 3;  // queued or being checked at once
  int per_hour = 20;
};
struct NewSubmission {
  std::optional<std::int64_t> id;
  std::string refused;  // why not, when no id
};

struct GameRow {
  std::int64_t id = 0;
  std::string kind;
  std::optional<std::int64_t> white_submission, black_submission;
  std::string white, black, result, reason;
  int plies = 0;
  std::string created;
};

struct NewGame {
  std::string kind = "smoke";
  std::optional<std::int64_t> white_submission, black_submission;
  std::string white, black, result, reason;
  int plies = 0;
  std::string record;  // the game record's JSON
  // Each side's own log (the submission it belongs to, the text).
  std::vector<std::pair<std::int64_t, std::string>> logs;
};

struct Event {
  std::int64_t id = 0;
  std::string at, actor, action, detail;
};

std::string utc_now();  // 2026-11-26T01:02:03Z

class Store {
 public:
  // Opens DIR/course.db, creating it when `create`, and migrates it.
  Store(const std::filesystem::path& db_file, bool create);

  // Settings: game, title, deadline ("" or ISO 8601 UTC).
  std::optional<std::string> setting(const std::string& key);
  void set_setting(const std::string& key, const std::string& value);

  // Throws std::runtime_error when the login exists.
  std::int64_t add_user(const std::string& login, const std::string& name, Role role,
                        const nlohmann::json& extra);
  std::optional<User> user(const std::string& login);
  std::optional<User> user(std::int64_t id);
  std::vector<User> users();
  // Sets a password hash; ends every session of the user (a reset locks out whoever had it).
  void set_password(std::int64_t user_id, const std::string& hash, bool must_change);
  void set_disabled(std::int64_t user_id, bool disabled);

  void add_token(std::int64_t user_id, const std::string& token_hash);
  std::optional<User> user_for_token(const std::string& token_hash);
  int revoke_tokens(std::int64_t user_id);  // gives how many ended

  void add_session(std::int64_t user_id, const std::string& id_hash, const std::string& csrf,
                   std::int64_t expires);
  std::optional<Session> session(const std::string& id_hash, std::int64_t now);
  void end_session(const std::string& id_hash);

  NewSubmission add_submission(std::int64_t user_id, const std::string& file_hash,
                               const std::string& file_name, std::int64_t size,
                               const SubmissionLimits& limits);
  std::optional<Submission> submission(std::int64_t id);
  // One user's (newest first), or everyone's when user_id is empty.
  std::vector<Submission> submissions(std::optional<std::int64_t> user_id);
  // The oldest queued hand-in, now `building`; nullopt when none waits.
  std::optional<Submission> take_queued();
  void set_progress(std::int64_t id, const std::string& state, const std::string& stage);
  void finish_check(std::int64_t id, bool accepted, const std::string& reason,
                    const std::string& verdict, const std::string& build_log,
                    const std::optional<std::string>& grade, const std::vector<NewGame>& games);
  // Hand-ins a stopped server left half checked go back to the queue; gives how many.
  int requeue_interrupted();
  // Back to the queue, its old smoke games gone (re-check by staff); false when it is not
  // finished (queued or being checked already).
  bool requeue(std::int64_t id);
  // A check that broke on our side (not the hand-in's): rejected with the reason, so it neither
  // stays "building" nor counts as waiting.
  void fail_check(std::int64_t id, const std::string& reason);
  void set_excluded(std::int64_t id, bool excluded);
  // Each student's newest accepted, not excluded hand-in.
  std::vector<Submission> current_versions();

  std::vector<GameRow> games_of_submission(std::int64_t submission_id);
  // The newest games where a side is the user's hand-in (every game when user_id is empty).
  std::vector<GameRow> games_of_user(std::optional<std::int64_t> user_id, int limit);
  std::optional<GameRow> game(std::int64_t id);
  std::optional<std::string> game_record(std::int64_t id);
  std::optional<std::string> game_log(std::int64_t game_id, std::int64_t submission_id);

  void log_event(const std::string& actor, const std::string& action, const std::string& detail);
  std::vector<Event> events(int limit);

  // Grows with every change of people, settings or hand-ins: an answer built from them (the
  // leaderboard) is kept until it grows.
  std::uint64_t generation() const { return generation_.load(); }

  // A consistent copy of the database in `file` (VACUUM INTO), taken while others write.
  void backup_to(const std::filesystem::path& file);

 private:
  std::mutex mutex_;
  Database db_;
  std::atomic<std::uint64_t> generation_{0};

  std::vector<Submission> submissions_where(const std::string& where,
                                            std::optional<std::int64_t> value);
  void log_event_locked(const std::string& actor, const std::string& action,
                        const std::string& detail);
};

}  // namespace arena::course
