#include "handin/unpack.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <system_error>

#include "core/text.hpp"
#include "handin/archive_reader.hpp"
#include "handin/extractor.hpp"

namespace arena::handin {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kBlock = 64 * 1024;
constexpr std::string_view kNotAnArchive = "not a zip, jar or tar archive (.tar, .tar.gz, .tar.xz)";

// Closes a descriptor at the end of a scope.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

UnpackResult refused(std::string reason, std::string_view entry = {}) {
  UnpackResult r;
  r.reason = std::move(reason);
  r.entry = printable(entry, 120);
  return r;
}

bool ends_with_jar(const fs::path& p) {
  const std::string ext = to_upper(p.extension().string());
  return ext == ".JAR";
}

// Feeds every entry of an opened archive to the extractor; the first header tells the input's
// kind and compression.
bool extract_entries(ArchiveReader& reader, Extractor& ex, UnpackResult& r) {
  archive* a = reader.get();
  archive_entry* e = nullptr;
  std::array<char, kBlock> buf;
  bool first = true;
  while (true) {
    const int status = archive_read_next_header(a, &e);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN) {
      if (first && archive_format(a) == 0 && reader.unknown_format())
        return ex.refuse(std::string(kNotAnArchive), "");
      return ex.refuse("the archive is damaged: " + reader.error(), "");
    }
    if (first) {
      const int base = archive_format(a) & ARCHIVE_FORMAT_BASE_MASK;
      r.kind = base == ARCHIVE_FORMAT_ZIP ? InputKind::Zip : InputKind::Tar;
      const int filter = archive_filter_code(a, 0);
      r.compression = filter == ARCHIVE_FILTER_GZIP ? "gzip"
                      : filter == ARCHIVE_FILTER_XZ ? "xz"
                                                    : "";
      first = false;
    }
    const char* raw_name = archive_entry_pathname(e);
    if (raw_name == nullptr) return ex.refuse("an entry has a name that cannot be read", "");
    const std::string_view name = raw_name;
    if (archive_entry_hardlink(e) != nullptr) return ex.refuse("hard link", name);
    switch (archive_entry_filetype(e)) {
      case AE_IFDIR:
        if (!ex.folder(name)) return false;
        break;
      case AE_IFLNK: {
        const char* target = archive_entry_symlink(e);
        if (!ex.symlink(name, target == nullptr ? "" : target)) return false;
        break;
      }
      case 0:  // zips made on some systems say nothing of the type
      case AE_IFREG: {
        // The header's size is not trusted: the bytes are counted as they come.
        std::optional<timespec> mtime;
        if (archive_entry_mtime_is_set(e))
          mtime = timespec{archive_entry_mtime(e), archive_entry_mtime_nsec(e)};
        if (!ex.begin_file(name, (archive_entry_perm(e) & 0111) != 0, mtime)) return false;
        while (true) {
          const la_ssize_t n = archive_read_data(a, buf.data(), buf.size());
          if (n == 0) break;
          if (n < 0) return ex.refuse("cannot read the entry: " + reader.error(), name);
          if (!ex.write(buf.data(), static_cast<std::size_t>(n))) return false;
        }
        if (!ex.end_file()) return false;
        break;
      }
      case AE_IFCHR:
      case AE_IFBLK:
        return ex.refuse("device file", name);
      case AE_IFIFO:
        return ex.refuse("fifo (named pipe)", name);
      case AE_IFSOCK:
        return ex.refuse("socket", name);
      default:
        return ex.refuse("entry of an unknown type", name);
    }
  }
  if (first) return ex.refuse("the archive holds nothing", "");
  return true;
}

// A folder, copied by the same rules as an archive (its links kept only if they stay inside).
bool copy_folder(const fs::path& from, Extractor& ex) {
  std::error_code ec;
  fs::recursive_directory_iterator it(from, ec), end;
  std::array<char, kBlock> buf;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string name = p.lexically_relative(from).generic_string();
    const auto st = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_directory(st)) {
      if (!ex.folder(name)) return false;
    } else if (fs::is_symlink(st)) {
      const auto target = fs::read_symlink(p, ec);
      if (ec) break;
      if (!ex.symlink(name, target.string())) return false;
    } else if (fs::is_regular_file(st)) {
      Fd in(::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
      struct stat info {};
      if (in.fd < 0 || ::fstat(in.fd, &info) != 0)
        return ex.refuse(fmt::format("cannot read the file: {}", std::strerror(errno)), name);
      if (!ex.begin_file(name, (info.st_mode & 0111) != 0, info.st_mtim)) return false;
      while (true) {  // the bytes that are there, whatever the size said a moment ago
        const ssize_t n = ::read(in.fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
          return ex.refuse(fmt::format("cannot read the file: {}", std::strerror(errno)), name);
        if (n == 0) break;
        if (!ex.write(buf.data(), static_cast<std::size_t>(n))) return false;
      }
      if (!ex.end_file()) return false;
    } else if (fs::is_character_file(st) || fs::is_block_file(st)) {
      return ex.refuse("device file", name);
    } else if (fs::is_fifo(st)) {
      return ex.refuse("fifo (named pipe)", name);
    } else if (fs::is_socket(st)) {
      return ex.refuse("socket", name);
    } else {
      return ex.refuse("entry of an unknown type", name);
    }
  }
  if (ec) return ex.refuse("cannot read the folder: " + ec.message(), "");
  return true;
}

// The folder that holds the content: the top, or its only folder (`alice/` of alice/Makefile),
// leaving out what archivers add beside it (__MACOSX/, .DS_Store).
fs::path content_root(const fs::path& top) {
  std::error_code ec;
  fs::path only;
  int count = 0;
  for (const auto& e : fs::directory_iterator(top, ec)) {
    const auto name = e.path().filename().string();
    if (name == "__MACOSX" || name == ".DS_Store") continue;
    if (++count > 1) return top;
    only = e.path();
  }
  if (count == 1 && fs::is_directory(fs::symlink_status(only, ec))) return only;
  return top;
}

// Makes `dest`, which must be new.
std::string make_dest(const fs::path& dest, int& fd) {
  std::error_code ec;
  if (dest.has_parent_path()) fs::create_directories(dest.parent_path(), ec);
  if (::mkdir(dest.c_str(), 0755) != 0)
    return errno == EEXIST
               ? std::string("the folder to unpack into already exists")
               : fmt::format("cannot make the folder to unpack into: {}", std::strerror(errno));
  fd = ::open(dest.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return fmt::format("cannot open the folder to unpack into: {}", std::strerror(errno));
  return "";
}

// A jar: its entries checked like a zip's without writing them, then the file itself copied.
bool keep_jar(int in_fd, const fs::path& input, int top_fd, const UnpackLimits& limits,
              std::uint64_t size, UnpackResult& r) {
  {
    ArchiveReader reader;
    Extractor scan(-1, limits, size, r);
    if (!reader.open_fd(in_fd))
      return scan.refuse(reader.unknown_format()
                             ? std::string("a .jar that is not a zip (jar) file")
                             : "the jar is damaged: " + reader.error(),
                         "");
    if (!extract_entries(reader, scan, r)) return false;
    if (r.kind != InputKind::Zip) return scan.refuse("a .jar that is not a zip (jar) file", "");
  }
  r.kind = InputKind::Jar;
  if (::lseek(in_fd, 0, SEEK_SET) != 0) {
    r.ok = false;
    r.reason = fmt::format("cannot read the jar: {}", std::strerror(errno));
    return false;
  }
  UnpackResult copy;
  Extractor ex(top_fd, limits, 0, copy);
  std::array<char, kBlock> buf;
  const std::string name = input.filename().string();
  bool ok = ex.begin_file(name, false, std::nullopt);
  while (ok) {
    const ssize_t n = ::read(in_fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) ok = ex.refuse(fmt::format("cannot read the jar: {}", std::strerror(errno)), name);
    if (n <= 0) break;
    ok = ex.write(buf.data(), static_cast<std::size_t>(n));
  }
  ok = ok && ex.end_file();
  if (!ok) {
    r.ok = false;
    r.reason = copy.reason;
    r.entry = copy.entry;
  }
  return ok;
}

UnpackResult unpack_into(const fs::path& input, const fs::path& dest, int top_fd,
                         const UnpackLimits& limits) {
  UnpackResult r;
  std::error_code ec;
  if (fs::is_directory(input, ec)) {
    r.kind = InputKind::Folder;
    Extractor ex(top_fd, limits, 0, r);
    if (copy_folder(input, ex) && r.files + r.folders + r.links == 0)
      ex.refuse("the folder is empty", "");
    if (r.ok) ex.finish(dest);
    return r;
  }
  Fd in(::open(input.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat info {};
  if (in.fd < 0 || ::fstat(in.fd, &info) != 0)
    return refused(fmt::format("cannot open the hand-in: {}", std::strerror(errno)));
  if (!S_ISREG(info.st_mode)) return refused("the hand-in is neither a file nor a folder");
  if (info.st_size == 0) return refused("the file is empty");
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (ends_with_jar(input)) {
    keep_jar(in.fd, input, top_fd, limits, size, r);
    return r;
  }
  ArchiveReader reader;
  Extractor ex(top_fd, limits, size, r);
  if (!reader.open_fd(in.fd)) {
    ex.refuse(reader.unknown_format() ? std::string(kNotAnArchive)
                                      : "the archive is damaged: " + reader.error(),
              "");
    return r;
  }
  if (extract_entries(reader, ex, r)) ex.finish(dest);
  return r;
}

}  // namespace

std::string_view input_kind_name(InputKind k) {
  switch (k) {
    case InputKind::Folder:
      return "folder";
    case InputKind::Zip:
      return "zip";
    case InputKind::Tar:
      return "tar";
    case InputKind::Jar:
      return "jar";
  }
  return "folder";
}

std::string UnpackResult::message() const {
  if (ok)
    return fmt::format("unpacked ({}{}): {} files, {} folders, {} links, {} bytes",
                       input_kind_name(kind), compression.empty() ? "" : "+" + compression, files,
                       folders, links, bytes);
  if (entry.empty()) return "refused: " + reason;
  return fmt::format("refused: {}: '{}'", reason, entry);
}

UnpackResult unpack(const fs::path& input, const fs::path& dest, const UnpackLimits& limits) {
  int top_fd = -1;
  if (auto why = make_dest(dest, top_fd); !why.empty()) return refused(std::move(why));
  UnpackResult r;
  try {
    r = unpack_into(input, dest, top_fd, limits);
  } catch (const std::exception& e) {
    r = refused(fmt::format("cannot unpack: {}", e.what()));
  }
  ::close(top_fd);
  if (!r.ok) {
    std::error_code ec;
    fs::remove_all(dest, ec);  // removes links, never follows them
    return r;
  }
  r.root = content_root(dest);
  return r;
}

}  // namespace arena::handin
