#pragma once
// The course database's schema, one migration per version (PRAGMA user_version). Migrations run
// at start, each in its own transaction; a database newer than this program is refused.
#include "course/sqlite.hpp"

namespace arena::course {

// Brings the database to the newest version; throws std::runtime_error when it cannot.
void migrate(Database& db);

int schema_version();

}  // namespace arena::course
