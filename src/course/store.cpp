#include "course/store.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "course/schema.hpp"

namespace arena::course {
namespace {

constexpr const char* kUserColumns =
    "id, login, name, role, disabled, must_change_password, COALESCE(password_hash, ''), extra";

User read_user(const Statement& q, int first = 0) {
  User u;
  u.id = q.integer(first);
  u.login = q.text(first + 1);
  u.name = q.text(first + 2);
  u.role = parse_role(q.text(first + 3)).value_or(Role::Student);
  u.disabled = q.integer(first + 4) != 0;
  u.must_change_password = q.integer(first + 5) != 0;
  u.password_hash = q.text(first + 6);
  u.extra = nlohmann::json::parse(q.text(first + 7), nullptr, false);
  if (u.extra.is_discarded()) u.extra = nlohmann::json::object();
  return u;
}

constexpr const char* kSubmissionColumns =
    "s.id, s.user_id, u.login, u.name, s.created, s.file_hash, s.file_name, s.size, s.state, "
    "s.stage, s.reason, s.verdict, s.build_log, s.grade, s.excluded, s.checked";

Submission read_submission(const Statement& q) {
  Submission s;
  s.id = q.integer(0);
  s.user_id = q.integer(1);
  s.login = q.text(2);
  s.name = q.text(3);
  s.created = q.text(4);
  s.file_hash = q.text(5);
  s.file_name = q.text(6);
  s.size = q.integer(7);
  s.state = q.text(8);
  s.stage = q.text(9);
  s.reason = q.text(10);
  s.verdict = q.optional_text(11);
  s.build_log = q.text(12);
  s.grade = q.optional_text(13);
  s.excluded = q.integer(14) != 0;
  s.checked = q.optional_text(15);
  return s;
}

constexpr const char* kGameColumns =
    "id, kind, white_submission, black_submission, white, black, result, reason, plies, created, "
    "rated, requester";

GameRow read_game(const Statement& q) {
  GameRow g;
  g.id = q.integer(0);
  g.kind = q.text(1);
  if (!q.is_null(2)) g.white_submission = q.integer(2);
  if (!q.is_null(3)) g.black_submission = q.integer(3);
  g.white = q.text(4);
  g.black = q.text(5);
  g.result = q.text(6);
  g.reason = q.text(7);
  g.plies = static_cast<int>(q.integer(8));
  g.created = q.text(9);
  g.rated = q.integer(10) != 0;
  if (!q.is_null(11)) g.requester = q.integer(11);
  return g;
}

void bind_optional_id(Statement& q, int index, std::optional<std::int64_t> id) {
  if (id)
    q.bind(index, *id);
  else
    q.bind_null(index);
}

}  // namespace

std::string_view role_name(Role r) {
  return r == Role::Staff ? "staff" : "student";
}

std::optional<Role> parse_role(std::string_view s) {
  if (s == "student") return Role::Student;
  if (s == "staff") return Role::Staff;
  return std::nullopt;
}

std::string utc_now() {
  const auto now =
      std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", now);
}

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Store::Store(const std::filesystem::path& db_file, bool create) : db_(db_file, create) {
  migrate(db_);
}

std::optional<std::string> Store::setting(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare("SELECT value FROM settings WHERE key = ?1");
  q.with(key);
  if (!q.step()) return std::nullopt;
  return q.text(0);
}

void Store::set_setting(const std::string& key, const std::string& value) {
  std::lock_guard lock(mutex_);
  ++generation_;
  db_.prepare(
         "INSERT INTO settings (key, value) VALUES (?1, ?2) "
         "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
      .with(key, value)
      .run();
}

std::int64_t Store::add_user(const std::string& login, const std::string& name, Role role,
                             const nlohmann::json& extra) {
  std::lock_guard lock(mutex_);
  ++generation_;
  auto exists = db_.prepare("SELECT 1 FROM users WHERE login = ?1");
  exists.with(login);
  if (exists.step()) throw std::runtime_error(fmt::format("'{}' is on the roster already", login));
  db_.prepare("INSERT INTO users (login, name, role, extra) VALUES (?1, ?2, ?3, ?4)")
      .with(login, name, std::string(role_name(role)), extra.dump())
      .run();
  return db_.last_insert_id();
}

std::optional<User> Store::user(const std::string& login) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(fmt::format("SELECT {} FROM users WHERE login = ?1", kUserColumns));
  q.with(login);
  if (!q.step()) return std::nullopt;
  return read_user(q);
}

std::optional<User> Store::user(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(fmt::format("SELECT {} FROM users WHERE id = ?1", kUserColumns));
  q.with(id);
  if (!q.step()) return std::nullopt;
  return read_user(q);
}

std::vector<User> Store::users() {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(fmt::format("SELECT {} FROM users ORDER BY role, login", kUserColumns));
  std::vector<User> out;
  while (q.step()) out.push_back(read_user(q));
  return out;
}

void Store::set_password(std::int64_t user_id, const std::string& hash, bool must_change) {
  std::lock_guard lock(mutex_);
  ++generation_;
  Transaction t(db_);
  db_.prepare("UPDATE users SET password_hash = ?2, must_change_password = ?3 WHERE id = ?1")
      .with(user_id, hash, must_change ? 1 : 0)
      .run();
  db_.prepare("DELETE FROM sessions WHERE user_id = ?1").with(user_id).run();
  t.commit();
}

void Store::set_disabled(std::int64_t user_id, bool disabled) {
  std::lock_guard lock(mutex_);
  ++generation_;
  Transaction t(db_);
  db_.prepare("UPDATE users SET disabled = ?2 WHERE id = ?1").with(user_id, disabled ? 1 : 0).run();
  if (disabled) db_.prepare("DELETE FROM sessions WHERE user_id = ?1").with(user_id).run();
  t.commit();
}

void Store::add_token(std::int64_t user_id, const std::string& token_hash) {
  std::lock_guard lock(mutex_);
  db_.prepare("INSERT INTO tokens (hash, user_id, created) VALUES (?1, ?2, ?3)")
      .with(token_hash, user_id, utc_now())
      .run();
}

std::optional<User> Store::user_for_token(const std::string& token_hash) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(
      fmt::format("SELECT {} FROM users WHERE id = (SELECT user_id FROM tokens WHERE hash = ?1)",
                  kUserColumns));
  q.with(token_hash);
  if (!q.step()) return std::nullopt;
  return read_user(q);
}

int Store::revoke_tokens(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  db_.prepare("DELETE FROM tokens WHERE user_id = ?1").with(user_id).run();
  return db_.changes();
}

void Store::add_session(std::int64_t user_id, const std::string& id_hash, const std::string& csrf,
                        std::int64_t expires) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  db_.prepare("DELETE FROM sessions WHERE expires < strftime('%s', 'now')").run();
  db_.prepare("INSERT INTO sessions (hash, user_id, csrf, expires) VALUES (?1, ?2, ?3, ?4)")
      .with(id_hash, user_id, csrf, expires)
      .run();
  t.commit();
}

std::optional<Session> Store::session(const std::string& id_hash, std::int64_t now) {
  std::lock_guard lock(mutex_);
  auto q =
      db_.prepare(fmt::format("SELECT s.csrf, {} FROM sessions s JOIN users u ON u.id = s.user_id "
                              "WHERE s.hash = ?1 AND s.expires > ?2",
                              "u.id, u.login, u.name, u.role, u.disabled, u.must_change_password, "
                              "COALESCE(u.password_hash, ''), u.extra"));
  q.with(id_hash, now);
  if (!q.step()) return std::nullopt;
  Session s;
  s.csrf = q.text(0);
  s.user = read_user(q, 1);
  return s;
}

void Store::end_session(const std::string& id_hash) {
  std::lock_guard lock(mutex_);
  db_.prepare("DELETE FROM sessions WHERE hash = ?1").with(id_hash).run();
}

NewSubmission Store::add_submission(std::int64_t user_id, const std::string& file_hash,
                                    const std::string& file_name, std::int64_t size,
                                    const SubmissionLimits& limits) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  auto waiting = db_.prepare(
      "SELECT COUNT(*) FROM submissions WHERE user_id = ?1 AND state IN ('queued', 'building', "
      "'checking')");
  waiting.with(user_id).step();
  if (waiting.integer(0) >= limits.waiting)
    return {std::nullopt, fmt::format("{} of your hand-ins are still being checked: wait for "
                                      "their verdicts",
                                      waiting.integer(0))};
  auto recent = db_.prepare(
      "SELECT COUNT(*) FROM submissions WHERE user_id = ?1 AND created > "
      "strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-1 hour')");
  recent.with(user_id).step();
  if (recent.integer(0) >= limits.per_hour)
    return {std::nullopt, fmt::format("{} hand-ins in the last hour are the most a student may "
                                      "make: try again later",
                                      limits.per_hour)};
  ++generation_;
  db_.prepare(
         "INSERT INTO submissions (user_id, created, file_hash, file_name, size, state) "
         "VALUES (?1, ?2, ?3, ?4, ?5, 'queued')")
      .with(user_id, utc_now(), file_hash, file_name, size)
      .run();
  const auto id = db_.last_insert_id();
  t.commit();
  return {id, {}};
}

std::vector<Submission> Store::submissions_where(const std::string& where,
                                                 std::optional<std::int64_t> value) {
  auto q = db_.prepare(fmt::format(
      "SELECT {} FROM submissions s JOIN users u ON u.id = s.user_id {} ORDER BY s.id DESC",
      kSubmissionColumns, where));
  if (value) q.bind(1, *value);
  std::vector<Submission> out;
  while (q.step()) out.push_back(read_submission(q));
  return out;
}

std::optional<Submission> Store::submission(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto found = submissions_where("WHERE s.id = ?1", id);
  if (found.empty()) return std::nullopt;
  return found.front();
}

std::vector<Submission> Store::submissions(std::optional<std::int64_t> user_id) {
  std::lock_guard lock(mutex_);
  return user_id ? submissions_where("WHERE s.user_id = ?1", user_id)
                 : submissions_where("", std::nullopt);
}

std::optional<Submission> Store::take_queued() {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  auto q = db_.prepare("SELECT id FROM submissions WHERE state = 'queued' ORDER BY id LIMIT 1");
  if (!q.step()) return std::nullopt;
  const auto id = q.integer(0);
  ++generation_;
  db_.prepare("UPDATE submissions SET state = 'building', stage = 'starting' WHERE id = ?1")
      .with(id)
      .run();
  t.commit();
  auto found = submissions_where("WHERE s.id = ?1", id);
  return found.front();
}

void Store::set_progress(std::int64_t id, const std::string& state, const std::string& stage) {
  std::lock_guard lock(mutex_);
  ++generation_;
  db_.prepare(
         "UPDATE submissions SET state = ?2, stage = ?3 "
         "WHERE id = ?1 AND state IN ('building', 'checking')")
      .with(id, state, stage)
      .run();
}

void Store::finish_check(std::int64_t id, const CheckResult& result) {
  std::lock_guard lock(mutex_);
  ++generation_;
  Transaction t(db_);
  finish_check_locked(id, result);
  t.commit();
}

void Store::finish_check_locked(std::int64_t id, const CheckResult& r) {
  // The verdict and its games appear together or not at all (the caller's transaction).
  db_.prepare(
         "UPDATE submissions SET state = ?2, stage = '', reason = ?3, verdict = ?4, "
         "build_log = ?5, grade = ?6, checked = ?7 WHERE id = ?1")
      .with(id, r.accepted ? "accepted" : "rejected", r.reason, r.verdict, r.build_log, r.grade,
            utc_now())
      .run();
  db_.prepare(
         "DELETE FROM games WHERE kind = 'smoke' AND (white_submission = ?1 OR "
         "black_submission = ?1)")
      .with(id)
      .run();
  for (const NewGame& g : r.games) insert_game_locked(g);
}

std::int64_t Store::insert_game_locked(const NewGame& g) {
  auto q = db_.prepare(
      "INSERT INTO games (kind, white_submission, black_submission, white, black, result, "
      "reason, plies, record, created, job_id, rated, requester) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
  q.bind(1, g.kind);
  bind_optional_id(q, 2, g.white_submission);
  bind_optional_id(q, 3, g.black_submission);
  q.bind(4, g.white).bind(5, g.black).bind(6, g.result).bind(7, g.reason);
  q.bind(8, g.plies).bind(9, g.record).bind(10, utc_now());
  bind_optional_id(q, 11, g.job_id);
  q.bind(12, g.rated ? 1 : 0);
  bind_optional_id(q, 13, g.requester);
  q.run();
  const auto game_id = db_.last_insert_id();
  for (const auto& [submission_id, log] : g.logs)
    db_.prepare("INSERT INTO game_logs (game_id, submission_id, log) VALUES (?1, ?2, ?3)")
        .with(game_id, submission_id, log)
        .run();
  return game_id;
}

int Store::requeue_interrupted(bool checks_on_workers) {
  std::lock_guard lock(mutex_);
  ++generation_;
  Transaction t(db_);
  if (checks_on_workers) {
    // Workers went on checking while the server was down: their checks stay theirs.
    db_.prepare(
           "UPDATE submissions SET state = 'queued', stage = '' WHERE state IN ('building', "
           "'checking') AND id NOT IN (SELECT white_submission FROM jobs WHERE kind = 'check' "
           "AND state IN ('queued', 'leased'))")
        .run();
  } else {
    db_.prepare(
           "UPDATE jobs SET state = 'cancelled', finished = ?1 WHERE kind = 'check' AND "
           "state IN ('queued', 'leased')")
        .with(utc_now())
        .run();
    db_.prepare(
           "UPDATE submissions SET state = 'queued', stage = '' "
           "WHERE state IN ('building', 'checking')")
        .run();
  }
  const int changed = db_.changes();
  t.commit();
  return changed;
}

bool Store::requeue(std::int64_t id) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  db_.prepare(
         "UPDATE submissions SET state = 'queued', stage = '', reason = '', verdict = NULL, "
         "build_log = '', grade = NULL, checked = NULL "
         "WHERE id = ?1 AND state IN ('accepted', 'rejected')")
      .with(id)
      .run();
  if (db_.changes() == 0) return false;
  ++generation_;
  db_.prepare(
         "DELETE FROM games WHERE kind = 'smoke' AND (white_submission = ?1 OR "
         "black_submission = ?1)")
      .with(id)
      .run();
  t.commit();
  return true;
}

void Store::fail_check(std::int64_t id, const std::string& reason) {
  std::lock_guard lock(mutex_);
  ++generation_;
  db_.prepare(
         "UPDATE submissions SET state = 'rejected', stage = '', reason = ?2, checked = ?3 "
         "WHERE id = ?1 AND state IN ('building', 'checking')")
      .with(id, reason, utc_now())
      .run();
}

void Store::set_excluded(std::int64_t id, bool excluded) {
  std::lock_guard lock(mutex_);
  ++generation_;
  db_.prepare("UPDATE submissions SET excluded = ?2 WHERE id = ?1")
      .with(id, excluded ? 1 : 0)
      .run();
}

std::vector<Submission> Store::current_versions() {
  std::lock_guard lock(mutex_);
  return submissions_where(
      "WHERE s.id IN (SELECT MAX(id) FROM submissions WHERE state = 'accepted' AND excluded = 0 "
      "GROUP BY user_id) AND u.disabled = 0 AND u.role = 'student'",
      std::nullopt);
}

std::vector<Submission> Store::last_accepted_before(const std::string& cutoff) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(
      "SELECT MAX(s.id) FROM submissions s JOIN users u ON u.id = s.user_id WHERE s.state = "
      "'accepted' AND s.excluded = 0 AND s.created <= ?1 AND u.role = 'student' AND "
      "u.disabled = 0 GROUP BY s.user_id");
  q.with(cutoff);
  std::vector<std::int64_t> ids;
  while (q.step()) ids.push_back(q.integer(0));
  std::vector<Submission> out;
  for (const auto id : ids)
    for (Submission& s : submissions_where("WHERE s.id = ?1", id)) out.push_back(std::move(s));
  std::sort(out.begin(), out.end(),
            [](const Submission& a, const Submission& b) { return a.login < b.login; });
  return out;
}

std::vector<GameRow> Store::games_of_submission(std::int64_t submission_id) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(fmt::format(
      "SELECT {} FROM games WHERE white_submission = ?1 OR black_submission = ?1 ORDER BY id",
      kGameColumns));
  q.with(submission_id);
  std::vector<GameRow> out;
  while (q.step()) out.push_back(read_game(q));
  return out;
}

std::vector<GameRow> Store::games_of_user(std::optional<std::int64_t> user_id, int limit) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(fmt::format(
      "SELECT {} FROM games WHERE ?1 IS NULL OR ((white_submission IN (SELECT id FROM "
      "submissions WHERE user_id = ?1) OR black_submission IN (SELECT id FROM submissions WHERE "
      "user_id = ?1)) AND (requester IS NULL OR requester = ?1)) "
      "ORDER BY id DESC LIMIT ?2",
      kGameColumns));
  bind_optional_id(q, 1, user_id);
  q.bind(2, limit);
  std::vector<GameRow> out;
  while (q.step()) out.push_back(read_game(q));
  return out;
}

std::optional<GameRow> Store::game(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(fmt::format("SELECT {} FROM games WHERE id = ?1", kGameColumns));
  q.with(id);
  if (!q.step()) return std::nullopt;
  return read_game(q);
}

std::optional<std::string> Store::game_record(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare("SELECT record FROM games WHERE id = ?1");
  q.with(id);
  if (!q.step()) return std::nullopt;
  return q.text(0);
}

std::optional<std::string> Store::game_log(std::int64_t game_id, std::int64_t submission_id) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare("SELECT log FROM game_logs WHERE game_id = ?1 AND submission_id = ?2");
  q.with(game_id, submission_id);
  if (!q.step()) return std::nullopt;
  return q.text(0);
}

void Store::log_event_locked(const std::string& actor, const std::string& action,
                             const std::string& detail) {
  db_.prepare("INSERT INTO events (at, actor, action, detail) VALUES (?1, ?2, ?3, ?4)")
      .with(utc_now(), actor, action, detail)
      .run();
}

void Store::log_event(const std::string& actor, const std::string& action,
                      const std::string& detail) {
  std::lock_guard lock(mutex_);
  log_event_locked(actor, action, detail);
}

std::vector<Event> Store::events(int limit) {
  std::lock_guard lock(mutex_);
  auto q =
      db_.prepare("SELECT id, at, actor, action, detail FROM events ORDER BY id DESC LIMIT ?1");
  q.with(limit);
  std::vector<Event> out;
  while (q.step()) out.push_back({q.integer(0), q.text(1), q.text(2), q.text(3), q.text(4)});
  return out;
}

void Store::backup_to(const std::filesystem::path& file) {
  std::lock_guard lock(mutex_);
  db_.prepare("VACUUM INTO ?1").with(file.string()).run();
}

}  // namespace arena::course
