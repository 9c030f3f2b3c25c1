#include "tournament/journal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>
#include <stdexcept>

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFormat = "arena-tournament-journal";
constexpr int kVersion = 1;
constexpr std::uintmax_t kMaxJournalBytes = std::uintmax_t{1} << 30;

[[noreturn]] void fail(const fs::path& path, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}: {}", path.string(), what, std::strerror(errno)));
}

// A new directory entry is durable only once its directory is synced.
void sync_directory(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// The journal's complete lines; `complete` is where the last one ends (a line cut short by a
// kill follows it).
std::string read_complete_lines(const fs::path& path, std::size_t& complete) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot read {}: {}", path.string(), ec.message()));
  if (size > kMaxJournalBytes) throw std::runtime_error(path.string() + " is too large");
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto last_newline = text.rfind('\n');
  complete = last_newline == std::string::npos ? 0 : last_newline + 1;
  return text;
}

// Reads a journal's lines: the head (first line, checked for `type`), then its games.
void parse_journal(const fs::path& path, std::string_view text, std::string_view type,
                   const std::function<void(const nlohmann::json&)>& on_head,
                   const std::function<void(GameResult)>& on_game) {
  bool have_head = false;
  std::size_t begin = 0;
  for (int number = 1; begin < text.size(); ++number) {
    const std::size_t end = text.find('\n', begin);
    const std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    const auto where = [&] { return fmt::format("{}:{}", path.string(), number); };
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      throw std::runtime_error(where() + ": not a JSON object; the journal is damaged");
    try {
      if (number == 1) {
        if (j.value("format", "") != kFormat || j.value("type", "") != type)
          throw std::runtime_error("not an arena tournament journal");
        if (j.value("version", 0) != kVersion)
          throw std::runtime_error("unsupported journal version " +
                                   j.value("version", nlohmann::json()).dump());
        on_head(j);
        have_head = true;
      } else if (j.value("type", "") == "game") {
        on_game(game_result_from_json(j));
      } else {
        throw std::runtime_error("unknown entry type");
      }
    } catch (const std::exception& e) {
      throw std::runtime_error(where() + ": " + e.what());
    }
  }
  if (!have_head) throw std::runtime_error(path.string() + ": the journal's first line is missing");
}

// Opens a journal for appending and removes a last line cut short by a kill.
int open_for_append(const fs::path& path, std::size_t complete, std::size_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open for writing");
  if (complete < size) {
    if (::ftruncate(fd, static_cast<off_t>(complete)) != 0) {
      ::close(fd);
      fail(path, "cannot remove the unfinished last line");
    }
    ::fsync(fd);
  }
  return fd;
}

nlohmann::json shard_head(Shard s) {
  return {{"type", "shard"},
          {"format", kFormat},
          {"version", kVersion},
          {"shard", s.index},
          {"shards", s.count}};
}

}  // namespace

Journal Journal::create(const fs::path& dir, const EventSettings& settings) {
  fs::create_directories(dir);
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

Journal Journal::open(const fs::path& dir, EventSettings& settings,
                      std::vector<GameResult>& finished) {
  const auto path = dir / kJournalFile;
  if (!fs::exists(path))
    throw std::runtime_error(
        fmt::format("{} has no event journal ({})", dir.string(), kJournalFile));
  std::size_t complete = 0;
  const std::string text = read_complete_lines(path, complete);
  parse_journal(
      path, std::string_view(text).substr(0, complete), "event",
      [&](const nlohmann::json& head) { settings = settings_from_json(head.at("settings")); },
      [&](GameResult r) { finished.push_back(std::move(r)); });
  return Journal(open_for_append(path, complete, text.size()), path);
}

Journal Journal::open_shard(const fs::path& dir, Shard s) {
  const auto path = shard_journal_path(dir, s);
  fs::create_directories(path.parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot open for writing");
  Journal j(fd, path);
  sync_directory(path.parent_path());
  // One process per shard: a second one (a task resubmitted while the first still runs) would
  // play the same games. The lock goes with the process, also when it is killed.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
    throw std::runtime_error(fmt::format(
        "shard {} is being played by another process ({} is locked); stop it first, or wait "
        "for it",
        s.label(), path.string()));
  std::size_t complete = 0;
  const std::string text = read_complete_lines(path, complete);
  if (complete < text.size()) {  // a line cut short by a kill, or a head never finished
    if (::ftruncate(fd, static_cast<off_t>(complete)) != 0)
      fail(path, "cannot remove the unfinished last line");
    ::fsync(fd);
  }
  if (complete == 0) {
    j.write_line(shard_head(s).dump());
    return j;
  }
  parse_journal(
      path, std::string_view(text).substr(0, complete), "shard",
      [&](const nlohmann::json& head) {
        if (head.value("shard", 0) != s.index || head.value("shards", 0) != s.count)
          throw std::runtime_error("the journal of another shard");
      },
      [](GameResult) {});
  return j;
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

EventJournals read_event_journals(const fs::path& dir) {
  EventJournals out;
  const auto main_path = dir / kJournalFile;
  if (!fs::exists(main_path))
    throw std::runtime_error(
        fmt::format("{} is not an event folder: it has no event journal ({}); plan one with: arena "
                    "tournament plan",
                    dir.string(), kJournalFile));
  std::set<int> seen;
  auto take = [&](const std::string& name) {
    return [&out, &seen, name](GameResult r) {
      ++out.games_per_journal[name];
      if (seen.insert(r.index).second)
        out.games.push_back(std::move(r));
      else
        ++out.duplicates;
    };
  };
  std::size_t complete = 0;
  std::string text = read_complete_lines(main_path, complete);
  out.games_per_journal[kJournalFile] = 0;
  parse_journal(
      main_path, std::string_view(text).substr(0, complete), "event",
      [&](const nlohmann::json& head) { out.settings = settings_from_json(head.at("settings")); },
      take(kJournalFile));
  std::vector<std::pair<Shard, fs::path>> shards;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir / kShardsFolder, ec))
    if (e.path().extension() == ".jsonl")
      if (const auto s = shard_of_file(e.path())) shards.emplace_back(*s, e.path());
  std::sort(shards.begin(), shards.end(), [](const auto& a, const auto& b) {
    return std::pair(a.first.count, a.first.index) < std::pair(b.first.count, b.first.index);
  });
  for (const auto& [shard, path] : shards) {
    text = read_complete_lines(path, complete);
    if (complete == 0) continue;  // created, head not yet written
    const std::string name = fs::relative(path, dir).string();
    out.games_per_journal[name] = 0;
    out.shard_journals.push_back(shard);
    parse_journal(
        path, std::string_view(text).substr(0, complete), "shard", [](const nlohmann::json&) {},
        take(name));
  }
  std::sort(out.games.begin(), out.games.end(),
            [](const GameResult& a, const GameResult& b) { return a.index < b.index; });
  return out;
}

}  // namespace arena::tournament
