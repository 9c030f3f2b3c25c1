#pragma once
// Everything a course keeps in its database, as operations: people, credentials, sessions,
// hand-ins, games and the event log. Each operation is one transaction; one mutex makes the
// store safe to share between the server's threads (SQLite serializes writers anyway).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
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
  bool rated = false;
  std::optional<std::int64_t> requester;  // a challenge's games are its requester's alone
};

struct NewGame {
  std::string kind = "smoke";
  std::optional<std::int64_t> white_submission, black_submission;
  std::string white, black, result, reason;
  int plies = 0;
  std::string record;  // the game record's JSON
  // Each side's own log (the submission it belongs to, the text).
  std::vector<std::pair<std::int64_t, std::string>> logs;
  std::optional<std::int64_t> job_id;     // the job that played it (ladder, challenge)
  bool rated = false;                     // counts for the ladder's ratings
  std::optional<std::int64_t> requester;  // a challenge's: its games are theirs alone
};

// A hand-in's verdict as stored: its smoke games with it, in one transaction.
struct CheckResult {
  bool accepted = false;
  std::string reason, verdict, build_log;  // verdict: the JSON stored
  std::optional<std::string> grade;
  std::vector<NewGame> games;
  bool broken = false;  // the check itself did not finish (not the hand-in's fault)
};

// What a hand-in waiting for a worker's check shows as its stage.
inline constexpr const char* kWaitingForWorker = "waiting for a worker";

// A game to be played, leased to a worker: each side a hand-in or a built-in agent ("engine
// level=3"). States: queued, leased (a worker plays it until lease_expires), done, cancelled.
struct Job {
  std::int64_t id = 0;
  std::string kind = "ladder";  // or challenge
  std::optional<std::int64_t> white_submission, black_submission;
  std::string white_agent, black_agent;
  std::optional<std::int64_t> requester;
  std::string state = "queued", worker, lease;
  std::int64_t lease_expires = 0;  // seconds since the epoch
  int attempts = 0;
  int priority = 0;  // higher is played sooner (a new version's games)
  std::optional<std::int64_t> game_id;
  std::string created, finished;
};

// How many times a job is handed out before it is given up (a game that kills its workers).
inline constexpr int kMaxJobAttempts = 3;
inline constexpr int kMaxChallengesPlaying = 2;
// A re-run game's priority: a repair, played before new pairings.
inline constexpr int kRerunPriority = 1000;

struct WorkerRow {
  std::string name, created, last_seen, address;
  int games = 0;
};

// A rated ladder game: its two hand-ins and White's score (1, 0.5, 0).
struct RatedGame {
  std::int64_t white = 0, black = 0;
  double white_score = 0.5;
};

struct Event {
  std::int64_t id = 0;
  std::string at, actor, action, detail;
};

std::string utc_now();    // 2026-11-26T01:02:03Z
std::int64_t unix_now();  // seconds since 1970

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
  void finish_check(std::int64_t id, const CheckResult& result);
  // Hand-ins a stopped server left half checked go back to the queue; gives how many. With
  // checks on workers, those a worker holds (or will) stay with their jobs; without, such jobs
  // are cancelled and their hand-ins checked here.
  int requeue_interrupted(bool checks_on_workers);
  // Back to the queue, its old smoke games gone (re-check by staff); false when it is not
  // finished (queued or being checked already).
  bool requeue(std::int64_t id);
  // A check that broke on our side (not the hand-in's): rejected with the reason, so it neither
  // stays "building" nor counts as waiting.
  void fail_check(std::int64_t id, const std::string& reason);
  void set_excluded(std::int64_t id, bool excluded);
  // Each student's newest accepted, not excluded hand-in.
  std::vector<Submission> current_versions();
  // Each student's last accepted, not excluded hand-in made at or before `cutoff` (the final's
  // entrants), by login.
  std::vector<Submission> last_accepted_before(const std::string& cutoff);

  // The ladder's and challenges' jobs (store_jobs.cpp).
  void add_jobs(const std::vector<Job>& jobs);
  // A student's challenge games, queued unless they would make more than `max_open` of theirs
  // wait: then nothing is queued and the number waiting is given (-1: queued).
  int add_challenge_jobs(std::int64_t requester, const std::vector<Job>& jobs, int max_open);
  // The next job for `worker` (challenges first: a student waits for them), leased until
  // now + lease_seconds under the secret `lease`; nullopt when none waits.
  // Ladder games only when `ladder` (staff may pause the ladder; challenges go on); hand-ins'
  // checks (first of all) only when `checks` (the worker does them). A student's
  // challenges come before ladder games, at most kMaxChallengesPlaying of theirs at once (one
  // student cannot take every worker).
  std::optional<Job> lease_job(const std::string& worker, const std::string& lease,
                               std::int64_t now, int lease_seconds, bool ladder,
                               bool checks = false);
  // Whether the job is still leased under `lease` (then its lease runs until `until`).
  bool renew_lease(std::int64_t job_id, const std::string& lease, std::int64_t until);
  // The job's game, stored once: false when the lease is not (or no longer) this one's.
  bool finish_job(std::int64_t job_id, const std::string& lease, NewGame game);
  // A worker gives a job back (it cannot play it): queued again, or given up after
  // kMaxJobAttempts.
  bool release_job(std::int64_t job_id, const std::string& lease);
  // Leases that ran out go back to the queue (given up after kMaxJobAttempts); gives how many.
  int expire_leases(std::int64_t now);
  // At the server's start: leases run at least until `until` (workers went on playing while it
  // was down; their games are not taken from them for that).
  void extend_leases(std::int64_t until);
  std::optional<Job> job(std::int64_t id);
  // Checks on workers: every queued hand-in becomes a "check" job (its earlier one, if a worker
  // still holds it, is cancelled); gives how many.
  int queue_check_jobs();
  // The check job's verdict, stored once: false when the lease is not (or no longer) this one's.
  bool finish_check_job(std::int64_t job_id, const std::string& lease, std::int64_t submission_id,
                        const CheckResult& result);
  // Jobs in these states, oldest first (at most `limit`), or one requester's.
  std::vector<Job> jobs(const std::vector<std::string>& states, int limit);
  std::vector<Job> finished_jobs(int limit);  // newest first
  std::vector<Job> challenges_of(std::int64_t user_id, int limit);
  // Queued ladder jobs with a side outside `current` are cancelled (old versions stop playing).
  int cancel_ladder_jobs_outside(const std::vector<std::int64_t>& current);
  // Queued ladder games planned by matchmaking (not re-runs) are forgotten: the field changed,
  // and matchmaking plans again.
  int drop_planned_ladder_jobs();
  // The rated games among these versions.
  std::vector<RatedGame> rated_games(const std::vector<std::int64_t>& versions);
  // How many hand-ins made at or before `cutoff` are still queued or being checked.
  int unchecked_before(const std::string& cutoff);
  // Ladder games of a hand-in (or of every hand-in) finished in [from, to) stop counting, and
  // their pairings are queued again; gives how many.
  int rerun_ladder_games(std::optional<std::int64_t> submission_id, const std::string& from,
                         const std::string& to);

  // Workers: each signs in with its own token (kept as SHA-256).
  void set_worker(const std::string& name, const std::string& token_hash);
  std::optional<std::string> worker_for_token(const std::string& token_hash);
  void worker_seen(const std::string& name, const std::string& address);
  bool remove_worker(const std::string& name);
  std::vector<WorkerRow> workers();

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
  std::map<std::string, std::int64_t> worker_seen_at_;  // written at most every 30 s each

  std::vector<Submission> submissions_where(const std::string& where,
                                            std::optional<std::int64_t> value);
  std::int64_t insert_game_locked(const NewGame& game);
  void finish_check_locked(std::int64_t id, const CheckResult& result);
  // These jobs went back from a worker: a check given up rejects its hand-in, one queued again
  // shows it waiting for a worker.
  void check_jobs_returned_locked(const std::vector<std::int64_t>& job_ids);
  void log_event_locked(const std::string& actor, const std::string& action,
                        const std::string& detail);
};

}  // namespace arena::course
