#include "handin/content_hash.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace arena::handin {
namespace {

namespace fs = std::filesystem;

class Sha256 {
 public:
  Sha256() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
    crypto_hash_sha256_init(&state_);
  }
  void add(const void* data, std::size_t n) {
    crypto_hash_sha256_update(&state_, static_cast<const unsigned char*>(data), n);
  }
  // A field with its length first, so that no two sequences of fields hash alike.
  void field(const std::string& s) {
    const std::uint64_t n = s.size();
    add(&n, sizeof n);
    add(s.data(), s.size());
  }
  void file(const fs::path& path) {
    // O_NOFOLLOW | O_NONBLOCK: a file swapped for a link or a fifo since the listing is not
    // followed, nor waited on.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
      throw std::runtime_error("cannot read " + path.string() + ": " + std::strerror(errno));
    std::array<char, 1 << 16> buffer{};
    while (true) {
      const ssize_t n = ::read(fd, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int e = errno;
        ::close(fd);
        throw std::runtime_error("cannot read " + path.string() + ": " + std::strerror(e));
      }
      if (n == 0) break;
      add(buffer.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
  }
  std::string hex() {
    std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
    crypto_hash_sha256_final(&state_, digest.data());
    std::array<char, crypto_hash_sha256_BYTES * 2 + 1> text{};
    sodium_bin2hex(text.data(), text.size(), digest.data(), digest.size());
    return text.data();
  }

 private:
  crypto_hash_sha256_state state_{};
};

void add_folder(Sha256& h, const fs::path& root) {
  std::vector<fs::path> entries;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::none), end; it != end; ++it)
    entries.push_back(it->path().lexically_relative(root));
  std::sort(entries.begin(), entries.end());
  for (const fs::path& rel : entries) {
    const fs::path full = root / rel;
    struct stat st {};
    if (::lstat(full.c_str(), &st) != 0)
      throw std::runtime_error("cannot read " + full.string() + ": " + std::strerror(errno));
    h.field(rel.generic_string());
    h.field(std::to_string(st.st_mode));  // the type and the permission bits
    if (S_ISREG(st.st_mode)) {
      h.field(std::to_string(st.st_size));
      h.file(full);
    } else if (S_ISLNK(st.st_mode)) {
      h.field(fs::read_symlink(full).string());
    }
  }
}

}  // namespace

std::string content_hash(const fs::path& given) {
  // The hand-in itself may be a link in the course's folder (a teacher's choice): followed.
  const fs::path path = fs::canonical(given);
  Sha256 h;
  if (fs::is_directory(path)) {
    h.field("folder");
    add_folder(h, path);
  } else {
    h.field("file");
    h.file(path);
  }
  return h.hex();
}

}  // namespace arena::handin
