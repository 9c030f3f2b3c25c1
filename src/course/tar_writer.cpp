#include "course/tar_writer.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <vector>

namespace arena::course {
namespace fs = std::filesystem;

TarWriter::TarWriter(const fs::path& file, bool gzip) : a_(archive_write_new()), file_(file) {
  check(archive_write_set_format_pax_restricted(a_));
  if (gzip) check(archive_write_add_filter_gzip(a_));
  check(archive_write_open_filename(a_, file.c_str()));
}

TarWriter::~TarWriter() {
  archive_write_free(a_);
}

void TarWriter::check(int rc) {
  if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
    throw std::runtime_error(fmt::format("{}: {}", file_.string(), archive_error_string(a_)));
}

void TarWriter::add(const fs::path& file, const std::string& name) {
  std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(),
                                                                  archive_entry_free);
  const auto size = fs::file_size(file);
  archive_entry_set_pathname(e.get(), name.c_str());
  archive_entry_set_size(e.get(), static_cast<la_int64_t>(size));
  archive_entry_set_filetype(e.get(), AE_IFREG);
  archive_entry_set_perm(e.get(), 0640);
  check(archive_write_header(a_, e.get()));
  std::ifstream in(file, std::ios::binary);
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = in.gcount();
    if (n > 0 && archive_write_data(a_, buf.data(), static_cast<std::size_t>(n)) < 0)
      check(ARCHIVE_FATAL);
  }
}

void TarWriter::add_folder(const fs::path& folder, const std::string& prefix) {
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(folder), end; it != end; ++it)
    if (it->is_regular_file() && !it->is_symlink()) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) add(f, prefix + fs::relative(f, folder).string());
}

void TarWriter::close() {
  check(archive_write_close(a_));
  if (const int fd = ::open(file_.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced) throw std::runtime_error("cannot sync " + file_.string());
  }
}

}  // namespace arena::course
