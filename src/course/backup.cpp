#include "course/backup.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <stdexcept>
#include <vector>

#include "course/course_dir.hpp"
#include "course/credentials.hpp"
#include "course/file_store.hpp"
#include "course/store.hpp"

namespace arena::course {
namespace fs = std::filesystem;
namespace {

struct ArchiveWriter {
  archive* a = archive_write_new();
  ~ArchiveWriter() { archive_write_free(a); }
  void check(int rc) {
    if (rc != ARCHIVE_OK)
      throw std::runtime_error(fmt::format("backup: {}", archive_error_string(a)));
  }
  void add(const fs::path& file, const std::string& name) {
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(),
                                                                    archive_entry_free);
    const auto size = fs::file_size(file);
    archive_entry_set_pathname(e.get(), name.c_str());
    archive_entry_set_size(e.get(), static_cast<la_int64_t>(size));
    archive_entry_set_filetype(e.get(), AE_IFREG);
    archive_entry_set_perm(e.get(), 0640);
    check(archive_write_header(a, e.get()));
    std::ifstream in(file, std::ios::binary);
    std::vector<char> buf(1 << 16);
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      const auto n = in.gcount();
      if (n > 0 && archive_write_data(a, buf.data(), static_cast<std::size_t>(n)) < 0)
        check(ARCHIVE_FATAL);
    }
  }
};

}  // namespace

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
    ArchiveWriter w;
    w.check(archive_write_set_format_pax_restricted(w.a));
    w.check(archive_write_open_filename(w.a, partial.c_str()));
    w.add(snapshot, "course.db");
    // Hand-in files never change once written: whatever is there now is whole.
    for (fs::recursive_directory_iterator it(dir.files()), end; it != end; ++it) {
      if (!it->is_regular_file() || it->path().parent_path().filename() == "tmp") continue;
      if (!is_sha256_hex(it->path().filename().string())) continue;
      w.add(it->path(), "files/" + fs::relative(it->path(), dir.files()).string());
      ++summary.files;
      summary.bytes += it->file_size();
    }
    w.check(archive_write_close(w.a));
    // Whole on disk before it takes its name.
    if (const int fd = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
      const bool synced = ::fsync(fd) == 0;
      ::close(fd);
      if (!synced) throw std::runtime_error("cannot sync " + partial.string());
    }
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
