// The course database's migrations on a database with data in it: version 3 makes the jobs table
// again (a new kind of job), and what referred to it must still refer to the same rows.
#include <gtest/gtest.h>

#include "course/schema.hpp"
#include "course/sqlite.hpp"
#include "support/temp_dir.hpp"

namespace arena::course {
namespace {

std::int64_t one_number(Database& db, const std::string& sql) {
  auto q = db.prepare(sql);
  if (!q.step()) throw std::runtime_error("no row: " + sql);
  return q.integer(0);
}

TEST(CourseSchema, MakingTheJobsTableAgainKeepsItsRowsReferencesAndIds) {
  const arena::testing::TempDir tmp;  // the database and its -wal and -shm files go with it
  const auto file = tmp.path() / "course.db";
  {
    Database db(file, true);
    migrate(db, 2);
    ASSERT_EQ(one_number(db, "PRAGMA user_version"), 2);
    db.exec(
        "INSERT INTO jobs (kind, state, created, white_agent, black_agent) VALUES "
        "('ladder', 'done', 'x', 'engine level=1', 'engine level=2');"
        "INSERT INTO games (kind, white, black, result, reason, plies, record, created, job_id, "
        "rated) VALUES ('ladder', 'a', 'b', 'white', 'goal', 9, '{}', 'x', 1, 1);"
        "UPDATE jobs SET game_id = 1;"
        "INSERT INTO jobs (kind, state, created) VALUES ('ladder', 'queued', 'y');"
        "DELETE FROM jobs WHERE id = 2;");
    // Version 2 takes no check job.
    EXPECT_THROW(db.exec("INSERT INTO jobs (kind, state, created) VALUES ('check', 'queued', 'z')"),
                 std::runtime_error);
  }
  Database db(file, false);
  migrate(db);
  EXPECT_EQ(one_number(db, "PRAGMA user_version"), schema_version());
  EXPECT_EQ(one_number(db,
                       "SELECT COUNT(*) FROM jobs j JOIN games g ON g.job_id = j.id AND "
                       "j.game_id = g.id WHERE j.kind = 'ladder' AND g.rated = 1"),
            1);
  EXPECT_FALSE(db.prepare("PRAGMA foreign_key_check").step());
  db.exec("INSERT INTO jobs (kind, state, created) VALUES ('check', 'queued', 'z')");
  // A deleted job's id is not given again (a worker may still name it).
  EXPECT_EQ(db.last_insert_id(), 3);
  // The foreign keys are on again, and point at the new table.
  EXPECT_EQ(one_number(db, "PRAGMA foreign_keys"), 1);
  EXPECT_THROW(db.exec("INSERT INTO games (kind, white, black, result, reason, plies, record, "
                       "created, job_id) VALUES ('ladder', 'a', 'b', 'white', '', 1, '{}', 'x', "
                       "99)"),
               std::runtime_error);
}

}  // namespace
}  // namespace arena::course
