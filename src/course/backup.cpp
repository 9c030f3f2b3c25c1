#include "course/backup.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

#include "course/course_dir.hpp"
#include "course/credentials.hpp"
#include "course/file_store.hpp"
#include "course/store.hpp"
#include "course/tar_writer.hpp"

namespace arena::course {
namespace fs = std::filesystem;

BackupSummary backup_course(const fs::path& dir_path, const fs::path& file) {
  const CourseDir dir{dir_path};
  std::error_code ec;
  if (!fs::is_regular_file(dir.db(), ec))
    throw std::runtime_error(dir_path.string() + " is not a course folder (no course.db)");
  if (fs::exists(file, ec)) throw std::runtime_error(file.string() + " exists already");
  // The copy holds password hashes and students' code: its owner's only, from the start.
  const mode_t old_mask = ::umask(077);
  struct RestoreMask {
    mode_t mask;
    ~RestoreMask() { ::umask(mask); }
  } restore{old_mask};
  const fs::path snapshot = fs::path(file.string() + ".db-" + random_secret(6));
  {
    Store store(dir.db(), false);
    store.backup_to(snapshot);
  }
  BackupSummary summary;
  const fs::path partial = file.string() + ".partial";
  try {
    TarWriter w(partial, false);
    w.add(snapshot, "course.db");
    // Hand-in files never change once written: whatever is there now is whole.
    for (fs::recursive_directory_iterator it(dir.files()), end; it != end; ++it) {
      if (!it->is_regular_file() || it->path().parent_path().filename() == "tmp") continue;
      if (!is_sha256_hex(it->path().filename().string())) continue;
      w.add(it->path(), "files/" + fs::relative(it->path(), dir.files()).string());
      ++summary.files;
      summary.bytes += it->file_size();
    }
    w.close();  // whole on disk before it takes its name
  } catch (...) {
    fs::remove(snapshot, ec);
    fs::remove(partial, ec);
    throw;
  }
  fs::remove(snapshot, ec);
  fs::rename(partial, file);
  return summary;
}

}  // namespace arena::course
