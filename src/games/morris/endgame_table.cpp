#include "games/morris/endgame_table.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstring>

#include "games/morris/endgame_index.hpp"

namespace arena::morris::endgame {
namespace {

// File layout, little-endian: magic "ARENAMDB", u32 version, u32 movers, u32 others, u32 0,
// u64 entries, u64 checksum of the values, then the values.
constexpr std::array<char, 8> kMagic = {'A', 'R', 'E', 'N', 'A', 'M', 'D', 'B'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderSize = 40;

void put(std::uint8_t* at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) at[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::uint64_t get(const std::uint8_t* at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t{at[i]} << (8 * i);
  return v;
}

// Unmaps the file when the last table sharing it goes.
struct Mapping {
  void* base = nullptr;
  std::size_t length = 0;
  ~Mapping() {
    if (base) munmap(base, length);
  }
};

}  // namespace

std::string table_file_name(int movers, int others) {
  return fmt::format("morris-{}-{}.egdb", movers, others);
}

std::uint64_t checksum(const std::uint8_t* data, std::uint64_t size) {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ size;
  std::uint64_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, data + i, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
    h ^= h >> 29;
  }
  for (; i < size; ++i) h = (h ^ data[i]) * 0xC4CEB9FE1A85EC53ULL;
  return h ^ (h >> 32);
}

Table::Table(int movers, int others, std::vector<std::uint8_t> values)
    : movers_(movers), others_(others), size_(values.size()) {
  auto owned = std::make_shared<std::vector<std::uint8_t>>(std::move(values));
  data_ = owned->data();
  owner_ = std::move(owned);
}

Table::Table(int movers, int others, std::shared_ptr<const void> owner, const std::uint8_t* data)
    : movers_(movers),
      others_(others),
      size_(table_size(movers, others)),
      owner_(std::move(owner)),
      data_(data) {}

std::optional<Table> Table::load(const std::filesystem::path& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno));
    return std::nullopt;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    error = fmt::format("{}: not a regular file", path.string());
    return std::nullopt;
  }
  const auto length = static_cast<std::uint64_t>(st.st_size);
  if (length < kHeaderSize) {
    ::close(fd);
    error = fmt::format("{}: {} bytes, shorter than the header (truncated)", path.string(), length);
    return std::nullopt;
  }
  void* base = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (base == MAP_FAILED) {
    error = fmt::format("{}: cannot map: {}", path.string(), std::strerror(errno));
    return std::nullopt;
  }
  auto mapping = std::make_shared<Mapping>();
  mapping->base = base;
  mapping->length = length;
  const auto* bytes = static_cast<const std::uint8_t*>(base);

  const auto fail = [&](const std::string& why) {
    error = fmt::format("{}: {}", path.string(), why);
    return std::nullopt;
  };
  if (std::memcmp(bytes, kMagic.data(), kMagic.size()) != 0)
    return fail("not a Morris endgame table (bad magic)");
  if (get(bytes + 8, 4) != kVersion)
    return fail(fmt::format("format version {}, this arena reads {}", get(bytes + 8, 4), kVersion));
  const std::uint64_t movers = get(bytes + 12, 4), others = get(bytes + 16, 4);
  if (movers < 3 || movers > 9 || others < 3 || others > 9 || movers + others > kPoints)
    return fail(fmt::format("impossible piece counts {}-{}", movers, others));
  const int m = static_cast<int>(movers), o = static_cast<int>(others);
  const std::uint64_t entries = get(bytes + 24, 8);
  if (entries != table_size(m, o))
    return fail(fmt::format("{} entries, table {}-{} has {}", entries, m, o, table_size(m, o)));
  if (length != kHeaderSize + entries)
    return fail(
        fmt::format("{} bytes, expected {} (truncated or padded)", length, kHeaderSize + entries));
  const std::uint8_t* values = bytes + kHeaderSize;
  if (checksum(values, entries) != get(bytes + 32, 8)) return fail("checksum mismatch (corrupt)");
  return Table(m, o, std::move(mapping), values);
}

bool Table::save(const std::filesystem::path& path, std::string& error) const {
  std::array<std::uint8_t, kHeaderSize> header{};
  std::memcpy(header.data(), kMagic.data(), kMagic.size());
  put(header.data() + 8, kVersion, 4);
  put(header.data() + 12, static_cast<std::uint64_t>(movers_), 4);
  put(header.data() + 16, static_cast<std::uint64_t>(others_), 4);
  put(header.data() + 24, size_, 8);
  put(header.data() + 32, checksum(data_, size_), 8);
  const std::filesystem::path tmp = path.string() + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    error = fmt::format("{}: cannot create: {}", tmp.string(), std::strerror(errno));
    return false;
  }
  bool ok = std::fwrite(header.data(), 1, header.size(), f) == header.size() &&
            std::fwrite(data_, 1, size_, f) == size_;
  ok = std::fclose(f) == 0 && ok;
  std::error_code ec;
  if (ok) std::filesystem::rename(tmp, path, ec);
  if (!ok || ec) {
    std::filesystem::remove(tmp, ec);
    error = fmt::format("{}: cannot write", path.string());
    return false;
  }
  return true;
}

}  // namespace arena::morris::endgame
