#include "course/schema.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>

namespace arena::course {
namespace {

// Never edit a migration that has shipped: add the next one.
constexpr std::array kMigrations = {
    // 1: the course, its people, their hand-ins and games, and who did what. Ids of hand-ins and
    // games are never reused (AUTOINCREMENT): a link to one always means that one.
    R"sql(
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  login TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('student', 'staff')),
  disabled INTEGER NOT NULL DEFAULT 0,
  password_hash TEXT,
  must_change_password INTEGER NOT NULL DEFAULT 0,
  extra TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created TEXT NOT NULL
);
CREATE TABLE sessions (
  hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  csrf TEXT NOT NULL,
  expires INTEGER NOT NULL
);
CREATE TABLE submissions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id),
  created TEXT NOT NULL,
  file_hash TEXT NOT NULL,
  file_name TEXT NOT NULL,
  size INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'building', 'checking', 'accepted', 'rejected')),
  stage TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '',
  verdict TEXT,
  build_log TEXT NOT NULL DEFAULT '',
  grade TEXT,
  excluded INTEGER NOT NULL DEFAULT 0,
  checked TEXT
);
CREATE INDEX submissions_by_user ON submissions (user_id, id);
CREATE INDEX submissions_by_state ON submissions (state, id);
CREATE TABLE games (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('smoke', 'ladder', 'challenge')),
  white_submission INTEGER REFERENCES submissions (id),
  black_submission INTEGER REFERENCES submissions (id),
  white TEXT NOT NULL,
  black TEXT NOT NULL,
  result TEXT NOT NULL,
  reason TEXT NOT NULL,
  plies INTEGER NOT NULL,
  record TEXT NOT NULL,
  created TEXT NOT NULL
);
CREATE INDEX games_by_white ON games (white_submission);
CREATE INDEX games_by_black ON games (black_submission);
CREATE TABLE game_logs (
  game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  submission_id INTEGER NOT NULL REFERENCES submissions (id),
  log TEXT NOT NULL,
  PRIMARY KEY (game_id, submission_id)
);
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  detail TEXT NOT NULL
);
)sql",
    // 2: the ladder. Games to be played are jobs, leased to workers (the server's own or other
    // machines'); a finished job's game names its job, once (nothing counts twice). Workers sign
    // in with their own tokens, which reach nothing but the job they hold.
    R"sql(
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('ladder', 'challenge')),
  white_submission INTEGER REFERENCES submissions (id),
  black_submission INTEGER REFERENCES submissions (id),
  white_agent TEXT NOT NULL DEFAULT '',
  black_agent TEXT NOT NULL DEFAULT '',
  requester INTEGER REFERENCES users (id),
  state TEXT NOT NULL CHECK (state IN ('queued', 'leased', 'done', 'cancelled')),
  worker TEXT NOT NULL DEFAULT '',
  lease TEXT NOT NULL DEFAULT '',
  lease_expires INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  priority INTEGER NOT NULL DEFAULT 0,
  game_id INTEGER REFERENCES games (id),
  created TEXT NOT NULL,
  finished TEXT
);
CREATE INDEX jobs_by_state ON jobs (state, id);
ALTER TABLE games ADD COLUMN job_id INTEGER REFERENCES jobs (id);
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN requester INTEGER REFERENCES users (id);
CREATE UNIQUE INDEX games_by_job ON games (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX games_rated ON games (rated) WHERE rated = 1;
CREATE TABLE workers (
  name TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  created TEXT NOT NULL,
  last_seen TEXT,
  address TEXT NOT NULL DEFAULT '',
  games INTEGER NOT NULL DEFAULT 0
);
)sql",
    // 3: workers check hand-ins too ("check" jobs). SQLite cannot change a CHECK constraint: the
    // table is made again (SQLite's way: foreign keys off meanwhile, checked before the commit).
    R"sql(
CREATE TABLE jobs_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('ladder', 'challenge', 'check')),
  white_submission INTEGER REFERENCES submissions (id),
  black_submission INTEGER REFERENCES submissions (id),
  white_agent TEXT NOT NULL DEFAULT '',
  black_agent TEXT NOT NULL DEFAULT '',
  requester INTEGER REFERENCES users (id),
  state TEXT NOT NULL CHECK (state IN ('queued', 'leased', 'done', 'cancelled')),
  worker TEXT NOT NULL DEFAULT '',
  lease TEXT NOT NULL DEFAULT '',
  lease_expires INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  priority INTEGER NOT NULL DEFAULT 0,
  game_id INTEGER REFERENCES games (id),
  created TEXT NOT NULL,
  finished TEXT
);
INSERT INTO jobs_new SELECT id, kind, white_submission, black_submission, white_agent,
  black_agent, requester, state, worker, lease, lease_expires, attempts, priority, game_id,
  created, finished FROM jobs;
DELETE FROM sqlite_sequence WHERE name = 'jobs_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'jobs_new', seq FROM sqlite_sequence
  WHERE name = 'jobs';
DROP TABLE jobs;
ALTER TABLE jobs_new RENAME TO jobs;
CREATE INDEX jobs_by_state ON jobs (state, id);
)sql",
};

}  // namespace

int schema_version() {
  return static_cast<int>(kMigrations.size());
}

void migrate(Database& db, int up_to) {
  // Off while the schema changes (a table made again would break its references for a
  // moment); every migration's result is checked before its commit. A no-op in a transaction.
  db.exec("PRAGMA foreign_keys = OFF");
  struct KeysBackOn {
    Database& db;
    ~KeysBackOn() {
      try {
        db.exec("PRAGMA foreign_keys = ON");
      } catch (const std::exception&) {
        // The database is failing: the next statement says so.
      }
    }
  } keys_back_on{db};
  for (;;) {
    Transaction t(db);
    // Read and let go: a statement still open would lock the tables a migration drops.
    const auto version = [&db] {
      auto q = db.prepare("PRAGMA user_version");
      q.step();
      return q.integer(0);
    }();
    if (version > schema_version())
      throw std::runtime_error(fmt::format(
          "the course database has schema version {}, newer than this arena's {}: use a newer "
          "arena",
          version, schema_version()));
    if (version >= up_to) return;
    db.exec(kMigrations[static_cast<std::size_t>(version)]);
    if (db.prepare("PRAGMA foreign_key_check").step())
      throw std::runtime_error(
          fmt::format("the course database's migration to version {} broke a reference: it was "
                      "left as it was",
                      version + 1));
    db.exec(fmt::format("PRAGMA user_version = {}", version + 1));
    t.commit();
  }
}

}  // namespace arena::course
