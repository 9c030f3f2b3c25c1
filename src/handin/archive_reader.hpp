#pragma once
// A libarchive reader for the formats a hand-in may come in, and nothing else: zip (and jar),
// tar with no filter, gzip or xz. No other filter is enabled, so libarchive never runs an
// outside program to decompress.
#include <archive.h>
#include <archive_entry.h>

#include <cerrno>
#include <string>

namespace arena::handin {

class ArchiveReader {
 public:
  // Throws std::bad_alloc, or std::runtime_error when gzip or xz would need an outside program.
  ArchiveReader();
  ~ArchiveReader();
  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;

  // Opens an already open file (not owned; a regular file, so that zips can be read from their
  // central directory). False with error() set when it cannot.
  bool open_fd(int fd);
  archive* get() const { return a_; }
  std::string error() const;  // libarchive's last message, printable and bounded
  // Whether the last failure was that the input is in no format this reader knows (libarchive's
  // ARCHIVE_ERRNO_FILE_FORMAT, which is EILSEQ where the system has no EFTYPE).
  bool unknown_format() const { return archive_errno(a_) == EILSEQ; }

 private:
  archive* a_ = nullptr;
};

}  // namespace arena::handin
