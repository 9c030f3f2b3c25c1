#include "handin/archive_reader.hpp"

#include <new>
#include <stdexcept>

#include "core/text.hpp"

namespace arena::handin {

ArchiveReader::ArchiveReader() : a_(archive_read_new()) {
  if (a_ == nullptr) throw std::bad_alloc();
  archive_read_support_format_zip(a_);
  archive_read_support_format_tar(a_);
  archive_read_support_format_gnutar(a_);
  // ARCHIVE_WARN: this libarchive was built without the library and would run a program.
  if (archive_read_support_filter_gzip(a_) != ARCHIVE_OK ||
      archive_read_support_filter_xz(a_) != ARCHIVE_OK) {
    archive_read_free(a_);
    throw std::runtime_error("this libarchive cannot read gzip and xz by itself");
  }
}

ArchiveReader::~ArchiveReader() {
  archive_read_free(a_);
}

bool ArchiveReader::open_fd(int fd) {
  return archive_read_open_fd(a_, fd, 64 * 1024) == ARCHIVE_OK;
}

std::string ArchiveReader::error() const {
  const char* s = archive_error_string(a_);
  return s == nullptr ? std::string("unknown error") : printable(s, 200);
}

}  // namespace arena::handin
