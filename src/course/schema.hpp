#pragma once
// The course database's schema, one migration per version (PRAGMA user_version). Migrations run
// at start, each in its own transaction; a database newer than this program is refused.
#include "course/sqlite.hpp"

namespace arena::course {

int schema_version();

// Brings the database to version `up_to` (the newest by default; an older one to test the
// migrations themselves); throws std::runtime_error when it cannot.
void migrate(Database& db, int up_to = schema_version());

}  // namespace arena::course
