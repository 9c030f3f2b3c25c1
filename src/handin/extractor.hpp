#pragma once
// Writes a hand-in's entries under one new folder, whatever the names say: every folder on the
// way is opened under the one before it without following links, every file is created new
// (never opened if it exists), and every byte is counted against the limits as it is written.
// Symbolic links are only recorded and made at the end, so nothing is ever written through one.
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "handin/entry_path.hpp"
#include "handin/unpack.hpp"

namespace arena::handin {

class Extractor {
 public:
  // `top_fd`: the new folder (not owned), or -1 to check the entries without writing anything
  // (a jar, kept whole). `input_bytes`: the input's size for the ratio check (0: none).
  Extractor(int top_fd, const UnpackLimits& limits, std::uint64_t input_bytes,
            UnpackResult& result);
  ~Extractor();
  Extractor(const Extractor&) = delete;
  Extractor& operator=(const Extractor&) = delete;

  // Each returns false once the hand-in is refused (result.reason says why); stop then.
  bool folder(std::string_view name);
  bool begin_file(std::string_view name, bool executable, std::optional<timespec> mtime);
  bool write(const void* data, std::size_t n);
  bool end_file();
  bool symlink(std::string_view name, std::string_view target);
  bool refuse(std::string reason, std::string_view entry);
  // Makes the recorded links and checks that each, followed through the others, stays inside
  // `top` (the folder top_fd is).
  bool finish(const std::filesystem::path& top);

 private:
  struct Link {
    EntryPath path;
    std::string target;
  };

  int top_fd_;
  const UnpackLimits& limits_;
  std::uint64_t input_bytes_;
  UnpackResult& result_;
  std::set<std::string> link_names_;
  std::vector<Link> links_;
  int file_fd_ = -1;
  std::string file_name_;
  std::uint64_t file_bytes_ = 0;
  bool executable_ = false;
  std::optional<timespec> mtime_;

  std::optional<EntryPath> checked(std::string_view name);
  bool count_entry(std::string_view name);
  // The folder holding parts[0..n), made as needed; -1 after a refusal. The caller closes it.
  int open_folder(const EntryPath& path, std::size_t n, std::string_view name);
};

}  // namespace arena::handin
