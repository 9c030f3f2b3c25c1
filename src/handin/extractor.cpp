#include "handin/extractor.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "core/text.hpp"

namespace arena::handin {
namespace {

std::string megabytes(std::uint64_t bytes) {
  if (bytes % (1u << 20) == 0) return fmt::format("{} MB", bytes >> 20);
  return fmt::format("{} bytes", bytes);
}

std::string system_error(std::string_view what) {
  return fmt::format("{}: {}", what, std::strerror(errno));
}

}  // namespace

Extractor::Extractor(int top_fd, const UnpackLimits& limits, std::uint64_t input_bytes,
                     UnpackResult& result)
    : top_fd_(top_fd), limits_(limits), input_bytes_(input_bytes), result_(result) {
  result_.ok = true;
}

Extractor::~Extractor() {
  if (file_fd_ >= 0) ::close(file_fd_);
}

bool Extractor::refuse(std::string reason, std::string_view entry) {
  if (!result_.ok) return false;  // the first reason is the one that counts
  result_.ok = false;
  result_.reason = std::move(reason);
  result_.entry = printable(entry, 120);
  return false;
}

std::optional<EntryPath> Extractor::checked(std::string_view name) {
  auto path = clean_entry_path(name, limits_);
  if (!path) {
    refuse(path.error, name);
    return std::nullopt;
  }
  // A name under a link of the hand-in would be written wherever the link points.
  std::string prefix;
  for (const auto& part : path.value->parts) {
    if (!prefix.empty()) prefix += '/';
    prefix += part;
    if (link_names_.count(prefix) && prefix.size() < path.value->text().size()) {
      refuse(fmt::format("path goes through the symbolic link '{}'", printable(prefix)), name);
      return std::nullopt;
    }
  }
  return std::move(*path.value);
}

bool Extractor::count_entry(std::string_view name) {
  if (result_.files + result_.folders + result_.links + 1 > limits_.max_entries)
    return refuse(fmt::format("more than the limit of {} entries (files, folders and links)",
                              limits_.max_entries),
                  name);
  return true;
}

int Extractor::open_folder(const EntryPath& path, std::size_t n, std::string_view name) {
  int fd = ::fcntl(top_fd_, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    refuse(system_error("cannot open the folder"), name);
    return -1;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const char* part = path.parts[i].c_str();
    if (::mkdirat(fd, part, 0755) == 0) {
      if (!count_entry(name)) {
        ::close(fd);
        return -1;
      }
      ++result_.folders;
    } else if (errno != EEXIST) {
      refuse(system_error("cannot make a folder"), name);
      ::close(fd);
      return -1;
    }
    const int next = ::openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    ::close(fd);
    if (next < 0) {
      refuse(errno == ENOTDIR || errno == ELOOP
                 ? fmt::format("'{}' is both a file and a folder", printable(path.parts[i]))
                 : system_error("cannot open a folder"),
             name);
      return -1;
    }
    fd = next;
  }
  return fd;
}

bool Extractor::folder(std::string_view name) {
  if (!result_.ok) return false;
  const auto path = checked(name);
  if (!path) return false;
  if (path->parts.empty()) return true;  // "./": the top itself
  if (top_fd_ < 0) {
    if (!count_entry(name)) return false;
    ++result_.folders;
    return true;
  }
  const int fd = open_folder(*path, path->parts.size(), name);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

bool Extractor::begin_file(std::string_view name, bool executable, std::optional<timespec> mtime) {
  if (!result_.ok) return false;
  const auto path = checked(name);
  if (!path) return false;
  if (path->parts.empty()) return refuse("a file with no name", name);
  if (!count_entry(name)) return false;
  ++result_.files;
  file_name_ = std::string(name);
  file_bytes_ = 0;
  executable_ = executable;
  mtime_ = mtime;
  if (top_fd_ < 0) return true;
  const int parent = open_folder(*path, path->parts.size() - 1, name);
  if (parent < 0) return false;
  // O_EXCL: a name that exists (a file given twice, a folder) is never opened, let alone a link.
  file_fd_ = ::openat(parent, path->parts.back().c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  ::close(parent);
  if (file_fd_ < 0)
    return refuse(errno == EEXIST ? std::string("the name appears twice in the hand-in")
                                  : system_error("cannot create the file"),
                  name);
  return true;
}

bool Extractor::write(const void* data, std::size_t n) {
  if (!result_.ok) return false;
  if (file_bytes_ + n > limits_.max_file_bytes)
    return refuse(fmt::format("file is larger than the limit of {} per file",
                              megabytes(limits_.max_file_bytes)),
                  file_name_);
  if (result_.bytes + n > limits_.max_total_bytes)
    return refuse(fmt::format("the hand-in unpacks to more than the limit of {}",
                              megabytes(limits_.max_total_bytes)),
                  file_name_);
  file_bytes_ += n;
  result_.bytes += n;
  if (limits_.max_ratio > 0 && input_bytes_ > 0 && result_.bytes > limits_.ratio_after_bytes &&
      result_.bytes / input_bytes_ >= limits_.max_ratio)
    return refuse(fmt::format("the hand-in unpacks to over {} times its size (a compression bomb)",
                              limits_.max_ratio),
                  file_name_);
  if (file_fd_ < 0) return true;
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(file_fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return refuse(system_error("cannot write the file"), file_name_);
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool Extractor::end_file() {
  if (file_fd_ < 0) return result_.ok;
  // Sane modes whatever the archive said: owner-writable, no setuid/setgid/sticky, the
  // executable bit kept (a prebuilt `bot`, a run script).
  bool ok = ::fchmod(file_fd_, executable_ ? 0755 : 0644) == 0;
  if (ok && mtime_) {
    const timespec times[2] = {*mtime_, *mtime_};  // make compares them; keep the student's
    ok = ::futimens(file_fd_, times) == 0;
  }
  if (!ok) refuse(system_error("cannot set the file's mode"), file_name_);
  ok = ::close(file_fd_) == 0 && ok;
  file_fd_ = -1;
  if (!ok) return refuse(system_error("cannot write the file"), file_name_);
  return result_.ok;
}

bool Extractor::symlink(std::string_view name, std::string_view target) {
  if (!result_.ok) return false;
  auto path = checked(name);
  if (!path) return false;
  if (path->parts.empty()) return refuse("a symbolic link with no name", name);
  if (const auto why = link_target_error(*path, target); !why.empty())
    return refuse(fmt::format("{} ('{}')", why, printable(target)), name);
  if (!count_entry(name)) return false;
  ++result_.links;
  if (!link_names_.insert(path->text()).second)
    return refuse("the name appears twice in the hand-in", name);
  links_.push_back({std::move(*path), std::string(target)});
  return true;
}

bool Extractor::finish(const std::filesystem::path& top) {
  if (!result_.ok || top_fd_ < 0) return result_.ok;
  for (const auto& link : links_) {
    const std::string name = link.path.text();
    const int parent = open_folder(link.path, link.path.parts.size() - 1, name);
    if (parent < 0) return false;
    const int made = ::symlinkat(link.target.c_str(), parent, link.path.parts.back().c_str());
    ::close(parent);
    if (made != 0)
      return refuse(errno == EEXIST ? std::string("the name appears twice in the hand-in")
                                    : system_error("cannot make the symbolic link"),
                    name);
  }
  // Read as written each link stays inside; followed through other links ("b -> a/..", where
  // a -> ..) it might not. Resolve every one as the system will.
  std::error_code ec;
  const auto real_top = std::filesystem::canonical(top, ec);
  if (ec) return refuse("cannot resolve the folder: " + ec.message(), "");
  for (const auto& link : links_) {
    const auto name = link.path.text();
    const auto resolved = std::filesystem::weakly_canonical(top / name, ec);
    if (ec) return refuse("symbolic link that cannot be followed (" + ec.message() + ")", name);
    const auto rel = resolved.lexically_relative(real_top);
    if (rel.empty() || *rel.begin() == "..")
      return refuse(fmt::format("symbolic link that points outside the folder ('{}')",
                                printable(link.target)),
                    name);
  }
  return true;
}

}  // namespace arena::handin
