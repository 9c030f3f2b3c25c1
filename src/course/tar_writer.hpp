#pragma once
// Writes a tar file (gzip-compressed or not) with libarchive, one regular file at a time: the
// course's backup and the final tournament's downloadable report.
#include <filesystem>
#include <string>

struct archive;

namespace arena::course {

class TarWriter {
 public:
  TarWriter(const std::filesystem::path& file, bool gzip);
  ~TarWriter();
  TarWriter(const TarWriter&) = delete;
  TarWriter& operator=(const TarWriter&) = delete;

  // Adds `file` under the name `name` (mode 0640).
  void add(const std::filesystem::path& file, const std::string& name);
  // Adds every regular file under `folder`, named `prefix` + its path relative to it.
  void add_folder(const std::filesystem::path& folder, const std::string& prefix);
  // Finishes the archive; it is whole on disk (synced) when this returns.
  void close();

 private:
  archive* a_;
  std::filesystem::path file_;
  void check(int rc);
};

}  // namespace arena::course
