#pragma once
// Archives written in the test with libarchive, good and hostile, so no binary fixtures are kept:
// names, links, devices and sizes are whatever the test asks for.
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace arena::testing {

enum class ArchiveFormat { Zip, Tar, TarGz, TarXz };

class TestArchive {
 public:
  TestArchive(const std::filesystem::path& path, ArchiveFormat format) : a_(archive_write_new()) {
    if (format == ArchiveFormat::Zip) {
      archive_write_set_format_zip(a_);
      archive_write_set_options(a_, "zip:compression-level=1");  // zeros deflate as well, faster
    } else {
      archive_write_set_format_pax_restricted(a_);
      if (format == ArchiveFormat::TarGz) archive_write_add_filter_gzip(a_);
      if (format == ArchiveFormat::TarXz) {
        archive_write_add_filter_xz(a_);
        archive_write_set_options(a_, "xz:compression-level=0");
      }
    }
    check(archive_write_open_filename(a_, path.c_str()));
  }
  ~TestArchive() {
    if (a_ != nullptr) archive_write_free(a_);
  }
  TestArchive(const TestArchive&) = delete;
  TestArchive& operator=(const TestArchive&) = delete;

  void file(const std::string& name, const std::string& content, int mode = 0644) {
    header(name, AE_IFREG, mode, static_cast<std::int64_t>(content.size()));
    if (!content.empty()) archive_write_data(a_, content.data(), content.size());
  }
  // `bytes` zeros, written in blocks so that gigabytes cost no memory.
  void zeros(const std::string& name, std::uint64_t bytes) {
    header(name, AE_IFREG, 0644, static_cast<std::int64_t>(bytes));
    const std::vector<char> block(1 << 20, 0);
    while (bytes > 0) {
      const std::size_t n = bytes < block.size() ? static_cast<std::size_t>(bytes) : block.size();
      if (archive_write_data(a_, block.data(), n) < 0) fail();
      bytes -= n;
    }
  }
  void folder(const std::string& name) { header(name, AE_IFDIR, 0755, 0); }
  void symlink(const std::string& name, const std::string& target) {
    header(name, AE_IFLNK, 0777, 0,
           [&](archive_entry* e) { archive_entry_set_symlink(e, target.c_str()); });
  }
  void hardlink(const std::string& name, const std::string& target) {
    header(name, AE_IFREG, 0644, 0,
           [&](archive_entry* e) { archive_entry_set_hardlink(e, target.c_str()); });
  }
  void special(const std::string& name, unsigned type) { header(name, type, 0644, 0); }
  void close() {
    check(archive_write_close(a_));
    archive_write_free(a_);
    a_ = nullptr;
  }

 private:
  archive* a_;

  template <class F = void (*)(archive_entry*)>
  void header(
      const std::string& name, unsigned type, int mode, std::int64_t size,
      F extra = [](archive_entry*) {}) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, static_cast<mode_t>(mode));
    archive_entry_set_size(e, size);
    archive_entry_set_mtime(e, 1365976500, 0);
    extra(e);
    const int status = archive_write_header(a_, e);
    archive_entry_free(e);
    check(status);
  }
  void check(int status) {
    if (status < ARCHIVE_WARN) fail();
  }
  [[noreturn]] void fail() {
    throw std::runtime_error(std::string("archive_write: ") + archive_error_string(a_));
  }
};

}  // namespace arena::testing
