// The Store's ladder half: jobs leased to workers, their games stored once, the workers
// themselves, and the rated games the ladder's ratings come from.
#include <fmt/format.h>

#include <chrono>

#include "course/store.hpp"

namespace arena::course {
namespace {

constexpr const char* kJobColumns =
    "id, kind, white_submission, black_submission, white_agent, black_agent, requester, state, "
    "worker, lease, lease_expires, attempts, game_id, created, COALESCE(finished, '')";

std::optional<std::int64_t> optional_id(const Statement& q, int column) {
  if (q.is_null(column)) return std::nullopt;
  return q.integer(column);
}

Job read_job(const Statement& q) {
  Job j;
  j.id = q.integer(0);
  j.kind = q.text(1);
  j.white_submission = optional_id(q, 2);
  j.black_submission = optional_id(q, 3);
  j.white_agent = q.text(4);
  j.black_agent = q.text(5);
  j.requester = optional_id(q, 6);
  j.state = q.text(7);
  j.worker = q.text(8);
  j.lease = q.text(9);
  j.lease_expires = q.integer(10);
  j.attempts = static_cast<int>(q.integer(11));
  j.game_id = optional_id(q, 12);
  j.created = q.text(13);
  j.finished = q.text(14);
  return j;
}

void bind_id(Statement& q, int index, std::optional<std::int64_t> id) {
  if (id)
    q.bind(index, *id);
  else
    q.bind_null(index);
}

std::string id_list(const std::vector<std::int64_t>& ids) {
  std::string s;
  for (auto id : ids) {
    if (!s.empty()) s.push_back(',');
    s.append(std::to_string(id));
  }
  return s;
}

}  // namespace

void Store::add_jobs(const std::vector<Job>& jobs) {
  std::lock_guard lock(mutex_);
  ++generation_;
  Transaction t(db_);
  for (const Job& j : jobs) {
    auto q = db_.prepare(
        "INSERT INTO jobs (kind, white_submission, black_submission, white_agent, black_agent, "
        "requester, state, created, priority) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'queued', ?7, ?8)");
    q.bind(1, j.kind);
    bind_id(q, 2, j.white_submission);
    bind_id(q, 3, j.black_submission);
    q.bind(4, j.white_agent).bind(5, j.black_agent);
    bind_id(q, 6, j.requester);
    q.bind(7, utc_now());
    q.bind(8, j.priority);
    q.run();
  }
  t.commit();
}

int Store::add_challenge_jobs(std::int64_t requester, const std::vector<Job>& jobs, int max_open) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  auto q = db_.prepare(
      "SELECT COUNT(*) FROM jobs WHERE kind = 'challenge' AND requester = ?1 AND state IN "
      "('queued', 'leased')");
  q.with(requester).step();
  const auto open = static_cast<int>(q.integer(0));
  if (open + static_cast<int>(jobs.size()) > max_open) return open;
  ++generation_;
  for (const Job& j : jobs) {
    auto insert = db_.prepare(
        "INSERT INTO jobs (kind, white_submission, black_submission, white_agent, black_agent, "
        "requester, state, created) VALUES ('challenge', ?1, ?2, ?3, ?4, ?5, 'queued', ?6)");
    bind_id(insert, 1, j.white_submission);
    bind_id(insert, 2, j.black_submission);
    insert.bind(3, j.white_agent).bind(4, j.black_agent).bind(5, requester).bind(6, utc_now());
    insert.run();
  }
  t.commit();
  return -1;
}

std::optional<Job> Store::lease_job(const std::string& worker, const std::string& lease,
                                    std::int64_t now, int lease_seconds, bool ladder, bool checks) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  auto q = db_.prepare(
      "SELECT id FROM jobs j WHERE state = 'queued' AND ((?3 AND kind = 'check') OR "
      "(?1 AND kind = 'ladder') OR "
      "(kind = 'challenge' AND (SELECT COUNT(*) FROM jobs p WHERE p.kind = 'challenge' AND "
      "p.state = 'leased' AND p.requester = j.requester) < ?2)) "
      "ORDER BY kind = 'check' DESC, kind = 'challenge' DESC, priority DESC, id LIMIT 1");
  q.with(ladder ? 1 : 0, kMaxChallengesPlaying, checks ? 1 : 0);
  if (!q.step()) return std::nullopt;
  const auto id = q.integer(0);
  ++generation_;
  db_.prepare(
         "UPDATE jobs SET state = 'leased', worker = ?2, lease = ?3, lease_expires = ?4, "
         "attempts = attempts + 1 WHERE id = ?1")
      .with(id, worker, lease, now + lease_seconds)
      .run();
  t.commit();
  auto read = db_.prepare(fmt::format("SELECT {} FROM jobs WHERE id = ?1", kJobColumns));
  read.with(id).step();
  return read_job(read);
}

bool Store::renew_lease(std::int64_t job_id, const std::string& lease, std::int64_t until) {
  std::lock_guard lock(mutex_);
  db_.prepare(
         "UPDATE jobs SET lease_expires = MAX(lease_expires, ?3) "
         "WHERE id = ?1 AND state = 'leased' AND lease = ?2")
      .with(job_id, lease, until)
      .run();
  return db_.changes() == 1;
}

bool Store::finish_job(std::int64_t job_id, const std::string& lease, NewGame game) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  auto q = db_.prepare(
      "SELECT kind, requester, worker FROM jobs WHERE id = ?1 AND state = 'leased' AND "
      "lease = ?2");
  q.with(job_id, lease);
  if (!q.step()) return false;  // its lease ran out and it went to another worker
  game.kind = q.text(0);
  game.requester = optional_id(q, 1);
  game.rated = game.kind == "ladder";
  game.job_id = job_id;
  const std::string worker = q.text(2);
  ++generation_;
  const auto game_id = insert_game_locked(game);
  db_.prepare("UPDATE jobs SET state = 'done', game_id = ?2, finished = ?3 WHERE id = ?1")
      .with(job_id, game_id, utc_now())
      .run();
  db_.prepare("UPDATE workers SET games = games + 1 WHERE name = ?1").with(worker).run();
  t.commit();
  return true;
}

bool Store::release_job(std::int64_t job_id, const std::string& lease) {
  std::lock_guard lock(mutex_);
  ++generation_;
  db_.prepare(
         "UPDATE jobs SET state = CASE WHEN attempts >= ?3 THEN 'cancelled' ELSE 'queued' END, "
         "lease = '', worker = '', finished = CASE WHEN attempts >= ?3 THEN ?4 END "
         "WHERE id = ?1 AND state = 'leased' AND lease = ?2")
      .with(job_id, lease, kMaxJobAttempts, utc_now())
      .run();
  const bool released = db_.changes() == 1;
  if (released) check_jobs_returned_locked({job_id});
  return released;
}

int Store::queue_check_jobs() {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  std::vector<std::int64_t> ids;
  for (auto q = db_.prepare("SELECT id FROM submissions WHERE state = 'queued' ORDER BY id");
       q.step();)
    ids.push_back(q.integer(0));
  if (ids.empty()) return 0;
  ++generation_;
  for (const auto id : ids) {
    // A re-checked hand-in's earlier check, if a worker still has it, no longer counts.
    db_.prepare(
           "UPDATE jobs SET state = 'cancelled', finished = ?2 WHERE kind = 'check' AND "
           "white_submission = ?1 AND state IN ('queued', 'leased')")
        .with(id, utc_now())
        .run();
    db_.prepare(
           "INSERT INTO jobs (kind, white_submission, state, created) "
           "VALUES ('check', ?1, 'queued', ?2)")
        .with(id, utc_now())
        .run();
    db_.prepare("UPDATE submissions SET state = 'building', stage = ?2 WHERE id = ?1")
        .with(id, kWaitingForWorker)
        .run();
  }
  t.commit();
  return static_cast<int>(ids.size());
}

void Store::check_jobs_returned_locked(const std::vector<std::int64_t>& job_ids) {
  for (const auto id : job_ids) {
    auto q = db_.prepare(
        "SELECT state, white_submission FROM jobs WHERE id = ?1 AND kind = 'check' AND "
        "white_submission IS NOT NULL");
    if (!q.with(id).step()) continue;
    const std::string state = q.text(0);
    const auto submission = q.integer(1);
    if (state == "queued") {
      db_.prepare(
             "UPDATE submissions SET state = 'building', stage = ?2 WHERE id = ?1 AND state IN "
             "('building', 'checking')")
          .with(submission, kWaitingForWorker)
          .run();
    } else if (state == "cancelled") {
      // Given up after kMaxJobAttempts: the hand-in's verdict only in that it did not finish
      // (unless a newer check of it is on its way).
      db_.prepare(
             "UPDATE submissions SET state = 'rejected', stage = '', reason = ?2, checked = ?3 "
             "WHERE id = ?1 AND state IN ('building', 'checking') AND NOT EXISTS (SELECT 1 FROM "
             "jobs WHERE kind = 'check' AND white_submission = ?1 AND state IN ('queued', "
             "'leased'))")
          .with(submission,
                fmt::format("no worker could finish its check ({} tries): ask the staff to "
                            "check it again",
                            kMaxJobAttempts),
                utc_now())
          .run();
    }
  }
}

bool Store::finish_check_job(std::int64_t job_id, const std::string& lease,
                             std::int64_t submission_id, const CheckResult& result) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  auto q = db_.prepare(
      "SELECT worker FROM jobs WHERE id = ?1 AND state = 'leased' AND lease = ?2 AND "
      "kind = 'check' AND white_submission = ?3");
  q.with(job_id, lease, submission_id);
  if (!q.step()) return false;
  ++generation_;
  finish_check_locked(submission_id, result);
  db_.prepare("UPDATE jobs SET state = 'done', finished = ?2 WHERE id = ?1")
      .with(job_id, utc_now())
      .run();
  t.commit();
  return true;
}

int Store::expire_leases(std::int64_t now) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  std::vector<std::int64_t> checks;
  auto expiring = db_.prepare(
      "SELECT id FROM jobs WHERE state = 'leased' AND lease_expires < ?1 AND kind = 'check'");
  for (expiring.with(now); expiring.step();) checks.push_back(expiring.integer(0));
  db_.prepare(
         "UPDATE jobs SET state = CASE WHEN attempts >= ?2 THEN 'cancelled' ELSE 'queued' END, "
         "lease = '', worker = '', finished = CASE WHEN attempts >= ?2 THEN ?3 END "
         "WHERE state = 'leased' AND lease_expires < ?1")
      .with(now, kMaxJobAttempts, utc_now())
      .run();
  const int changed = db_.changes();
  if (changed > 0) ++generation_;
  check_jobs_returned_locked(checks);
  t.commit();
  return changed;
}

void Store::extend_leases(std::int64_t until) {
  std::lock_guard lock(mutex_);
  db_.prepare("UPDATE jobs SET lease_expires = MAX(lease_expires, ?1) WHERE state = 'leased'")
      .with(until)
      .run();
}

int Store::unchecked_before(const std::string& cutoff) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(
      "SELECT COUNT(*) FROM submissions WHERE created <= ?1 AND state IN ('queued', 'building', "
      "'checking')");
  q.with(cutoff).step();
  return static_cast<int>(q.integer(0));
}

std::optional<Job> Store::job(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(fmt::format("SELECT {} FROM jobs WHERE id = ?1", kJobColumns));
  q.with(id);
  if (!q.step()) return std::nullopt;
  return read_job(q);
}

std::vector<Job> Store::jobs(const std::vector<std::string>& states, int limit) {
  std::lock_guard lock(mutex_);
  std::string in;
  for (std::size_t i = 0; i < states.size(); ++i) in += fmt::format("{}?{}", i ? ", " : "", i + 2);
  auto q = db_.prepare(fmt::format("SELECT {} FROM jobs WHERE state IN ({}) ORDER BY id LIMIT ?1",
                                   kJobColumns, in.empty() ? "NULL" : in));
  q.bind(1, limit);
  for (std::size_t i = 0; i < states.size(); ++i) q.bind(static_cast<int>(i) + 2, states[i]);
  std::vector<Job> out;
  while (q.step()) out.push_back(read_job(q));
  return out;
}

std::vector<Job> Store::finished_jobs(int limit) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(fmt::format(
      "SELECT {} FROM jobs WHERE state IN ('done', 'cancelled') ORDER BY finished DESC, id DESC "
      "LIMIT ?1",
      kJobColumns));
  q.with(limit);
  std::vector<Job> out;
  while (q.step()) out.push_back(read_job(q));
  return out;
}

std::vector<Job> Store::challenges_of(std::int64_t user_id, int limit) {
  std::lock_guard lock(mutex_);
  auto q =
      db_.prepare(fmt::format("SELECT {} FROM jobs WHERE kind = 'challenge' AND requester = ?1 "
                              "ORDER BY id DESC LIMIT ?2",
                              kJobColumns));
  q.with(user_id, limit);
  std::vector<Job> out;
  while (q.step()) out.push_back(read_job(q));
  return out;
}

int Store::cancel_ladder_jobs_outside(const std::vector<std::int64_t>& current) {
  std::lock_guard lock(mutex_);
  // Ids are integers from the database itself: listing them inline binds nothing from outside.
  const std::string ids = id_list(current);
  db_.prepare(
         fmt::format("UPDATE jobs SET state = 'cancelled', finished = ?1 WHERE kind = 'ladder' AND "
                     "state = 'queued' AND (white_submission NOT IN ({0}) OR black_submission NOT "
                     "IN ({0}))",
                     ids.empty() ? "NULL" : ids))
      .with(utc_now())
      .run();
  const int changed = db_.changes();
  if (changed > 0) ++generation_;
  return changed;
}

int Store::drop_planned_ladder_jobs() {
  std::lock_guard lock(mutex_);
  db_.prepare(
         "DELETE FROM jobs WHERE kind = 'ladder' AND state = 'queued' AND attempts = 0 AND "
         "priority < ?1")
      .with(kRerunPriority)
      .run();
  const int changed = db_.changes();
  if (changed > 0) ++generation_;
  return changed;
}

std::vector<RatedGame> Store::rated_games(const std::vector<std::int64_t>& versions) {
  std::lock_guard lock(mutex_);
  // Ids are integers from the database itself: listing them inline binds nothing from outside.
  const std::string ids = versions.empty() ? "NULL" : id_list(versions);
  auto q = db_.prepare(fmt::format(
      "SELECT white_submission, black_submission, result FROM games WHERE rated = 1 AND "
      "white_submission IN ({0}) AND black_submission IN ({0}) ORDER BY id",
      ids));
  std::vector<RatedGame> out;
  while (q.step()) {
    const std::string result = q.text(2);
    out.push_back({q.integer(0), q.integer(1),
                   result == "white"   ? 1.0
                   : result == "black" ? 0.0
                                       : 0.5});
  }
  return out;
}

int Store::rerun_ladder_games(std::optional<std::int64_t> submission_id, const std::string& from,
                              const std::string& to) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  const std::string where =
      "rated = 1 AND kind = 'ladder' AND (?1 IS NULL OR white_submission = ?1 OR "
      "black_submission = ?1) AND created >= ?2 AND created < ?3";
  auto q = db_.prepare(
      "INSERT INTO jobs (kind, white_submission, black_submission, state, created, priority) "
      "SELECT 'ladder', white_submission, black_submission, 'queued', ?4, ?5 FROM games WHERE " +
      where);
  bind_id(q, 1, submission_id);
  q.bind(2, from).bind(3, to).bind(4, utc_now()).bind(5, kRerunPriority);
  q.run();
  const int queued = db_.changes();
  auto unrate = db_.prepare("UPDATE games SET rated = 0 WHERE " + where);
  bind_id(unrate, 1, submission_id);
  unrate.bind(2, from).bind(3, to);
  unrate.run();
  ++generation_;
  t.commit();
  return queued;
}

void Store::set_worker(const std::string& name, const std::string& token_hash) {
  std::lock_guard lock(mutex_);
  db_.prepare(
         "INSERT INTO workers (name, token_hash, created) VALUES (?1, ?2, ?3) "
         "ON CONFLICT (name) DO UPDATE SET token_hash = excluded.token_hash")
      .with(name, token_hash, utc_now())
      .run();
}

std::optional<std::string> Store::worker_for_token(const std::string& token_hash) {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare("SELECT name FROM workers WHERE token_hash = ?1");
  q.with(token_hash);
  if (!q.step()) return std::nullopt;
  return q.text(0);
}

void Store::worker_seen(const std::string& name, const std::string& address) {
  std::lock_guard lock(mutex_);
  // Every request of every worker would be a synced write: once in 30 s is news enough.
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::steady_clock::now().time_since_epoch())
                       .count();
  auto& last = worker_seen_at_[name];
  if (last != 0 && now - last < 30) return;
  last = now;
  db_.prepare("UPDATE workers SET last_seen = ?2, address = ?3 WHERE name = ?1")
      .with(name, utc_now(), address)
      .run();
}

bool Store::remove_worker(const std::string& name) {
  std::lock_guard lock(mutex_);
  db_.prepare("DELETE FROM workers WHERE name = ?1").with(name).run();
  return db_.changes() == 1;
}

std::vector<WorkerRow> Store::workers() {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(
      "SELECT name, created, COALESCE(last_seen, ''), address, games FROM workers ORDER BY name");
  std::vector<WorkerRow> out;
  while (q.step())
    out.push_back({q.text(0), q.text(1), q.text(2), q.text(3), static_cast<int>(q.integer(4))});
  return out;
}

}  // namespace arena::course
