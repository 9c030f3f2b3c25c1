#pragma once
// `arena course backup DIR FILE`: a tar (FILE) holding a consistent copy of the database, taken
// while the server writes (SQLite's VACUUM INTO), and every hand-in file. Restoring is unpacking
// it into a new folder (`tar -xf FILE -C NEWDIR`) and serving that.
#include <filesystem>

namespace arena::course {

struct BackupSummary {
  std::size_t files = 0;
  std::uintmax_t bytes = 0;
};

BackupSummary backup_course(const std::filesystem::path& dir, const std::filesystem::path& file);

}  // namespace arena::course
