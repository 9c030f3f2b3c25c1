#include "course/file_store.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "course/credentials.hpp"

namespace arena::course {
namespace fs = std::filesystem;
namespace {

void sync_path(const fs::path& p, int flags) {
  const int fd = ::open(p.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

bool is_sha256_hex(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

FileStore::FileStore(fs::path dir) : dir_(std::move(dir)) {
  fs::create_directories(dir_ / "tmp");
}

fs::path FileStore::path(const std::string& hash) const {
  if (!is_sha256_hex(hash)) throw std::runtime_error("not a SHA-256: " + hash.substr(0, 80));
  return dir_ / hash.substr(0, 2) / hash;
}

bool FileStore::has(const std::string& hash) const {
  std::error_code ec;
  return is_sha256_hex(hash) && fs::is_regular_file(path(hash), ec);
}

std::string FileStore::put(std::string_view bytes) {
  const std::string hash = sha256_hex(bytes);
  const fs::path final_path = path(hash);
  if (has(hash)) return hash;
  fs::create_directories(final_path.parent_path());
  const fs::path tmp = dir_ / "tmp" / (hash + "." + random_secret(6));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
  if (fd < 0)
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", tmp.string(), std::strerror(errno)));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      fs::remove(tmp);
      throw std::runtime_error(fmt::format("cannot write {}: {}", tmp.string(), why));
    }
    done += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) {
    fs::remove(tmp);
    throw std::runtime_error("cannot sync " + tmp.string());
  }
  fs::rename(tmp, final_path);
  sync_path(final_path.parent_path(), O_RDONLY | O_DIRECTORY);
  return hash;
}

}  // namespace arena::course
