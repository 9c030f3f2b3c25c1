#include "tournament/journal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace arena::tournament {
namespace {

constexpr const char* kFormat = "arena-tournament-journal";
constexpr int kVersion = 1;
constexpr std::uintmax_t kMaxJournalBytes = std::uintmax_t{1} << 30;

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}: {}", path.string(), what, std::strerror(errno)));
}

// A new directory entry is durable only once its directory is synced.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

Journal Journal::create(const std::filesystem::path& dir, const EventSettings& settings) {
  std::filesystem::create_directories(dir);
  const auto path = dir / kJournalFile;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST)
      throw std::runtime_error(
          fmt::format("{} already holds an event; continue it with: arena tournament --resume {}",
                      dir.string(), dir.string()));
    fail(path, "cannot create");
  }
  Journal j(fd, path);
  const nlohmann::json head = {{"type", "event"},
                               {"format", kFormat},
                               {"version", kVersion},
                               {"settings", to_json(settings)}};
  j.write_line(head.dump());
  sync_directory(dir);
  return j;
}

Journal Journal::open(const std::filesystem::path& dir, EventSettings& settings,
                      std::vector<GameResult>& finished) {
  const auto path = dir / kJournalFile;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("{} has no event journal ({}): {}", dir.string(), kJournalFile, ec.message()));
  if (size > kMaxJournalBytes) throw std::runtime_error(path.string() + " is too large");
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Whatever follows the last newline was being written when the event stopped: drop it.
  const auto last_newline = text.rfind('\n');
  const std::size_t complete = last_newline == std::string::npos ? 0 : last_newline + 1;
  std::istringstream lines(text.substr(0, complete));
  std::string line;
  bool have_settings = false;
  for (int number = 1; std::getline(lines, line); ++number) {
    const auto where = [&] { return fmt::format("{}:{}", path.string(), number); };
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      throw std::runtime_error(where() + ": not a JSON object; the journal is damaged");
    try {
      if (number == 1) {
        if (j.value("format", "") != kFormat || j.value("type", "") != "event")
          throw std::runtime_error("not an arena tournament journal");
        if (j.value("version", 0) != kVersion)
          throw std::runtime_error("unsupported journal version " +
                                   j.value("version", nlohmann::json()).dump());
        settings = settings_from_json(j.at("settings"));
        have_settings = true;
      } else if (j.value("type", "") == "game") {
        finished.push_back(game_result_from_json(j));
      } else {
        throw std::runtime_error("unknown entry type");
      }
    } catch (const std::exception& e) {
      throw std::runtime_error(where() + ": " + e.what());
    }
  }
  if (!have_settings)
    throw std::runtime_error(path.string() + ": the event's settings line is missing");
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open for writing");
  if (complete < text.size()) {
    if (::ftruncate(fd, static_cast<off_t>(complete)) != 0) {
      ::close(fd);
      fail(path, "cannot remove the unfinished last line");
    }
    ::fsync(fd);
  }
  return Journal(fd, path);
}

Journal::Journal(Journal&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const GameResult& result) {
  nlohmann::json j = to_json(result);
  j["type"] = "game";
  write_line(j.dump());
}

void Journal::write_line(const std::string& line) {
  std::lock_guard lock(mutex_);
  const std::string data = line + "\n";
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path_, "cannot append");
    done += static_cast<std::size_t>(n);
  }
  if (::fdatasync(fd_) != 0) fail(path_, "cannot sync");
}

}  // namespace arena::tournament
