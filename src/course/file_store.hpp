#pragma once
// Hand-in files, each kept once under the SHA-256 of its bytes (DIR/files/ab/abcdef...), written
// to a temporary name, synced and renamed, so a file is either whole or not there.
#include <filesystem>
#include <string>
#include <string_view>

namespace arena::course {

class FileStore {
 public:
  explicit FileStore(std::filesystem::path dir);
  // Keeps the bytes (once); gives their hash. Throws std::runtime_error when it cannot write.
  std::string put(std::string_view bytes);
  // Where the file of `hash` is (it may not exist); throws for a malformed hash.
  std::filesystem::path path(const std::string& hash) const;
  bool has(const std::string& hash) const;

 private:
  std::filesystem::path dir_;
};

bool is_sha256_hex(std::string_view s);

}  // namespace arena::course
