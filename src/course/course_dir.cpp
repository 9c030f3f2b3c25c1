#include "course/course_dir.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "course/store.hpp"

namespace arena::course {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxRosterBytes = 4 << 20;
constexpr std::size_t kMaxField = 1000;

// One CSV record from `text` at `pos` (RFC 4180: quoted fields, "" inside quotes, CRLF or LF).
std::vector<std::string> next_record(const std::string& text, std::size_t& pos) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c == '"' && pos < text.size() && text[pos] == '"') {
        fields.back() += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      break;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  for (auto& f : fields) {
    while (!f.empty() && (f.back() == ' ' || f.back() == '\t')) f.pop_back();
    while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) f.erase(f.begin());
  }
  return fields;
}

}  // namespace

bool is_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t extra = c < 0x80           ? 0
                              : (c >> 5) == 0x6  ? 1
                              : (c >> 4) == 0xE  ? 2
                              : (c >> 3) == 0x1E ? 3
                                                 : 9;
    if (extra == 9 || i + extra >= s.size()) return false;  // a bad lead byte, or cut short
    for (std::size_t k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += extra + 1;
  }
  return true;
}

bool is_valid_login(const std::string& login) {
  if (login.empty() || login.size() > 64 || login[0] == '.' || login[0] == '-') return false;
  for (char c : login)
    if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '.' && c != '_' && c != '-')
      return false;
  return true;
}

std::string normalize_login(std::string login) {
  for (char& c : login)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return login;
}

std::vector<RosterEntry> read_roster(const fs::path& csv) {
  std::ifstream in(csv, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read the roster {}", csv.string()));
  std::string text(kMaxRosterBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxRosterBytes)
    throw std::runtime_error(fmt::format("the roster {} is over 4 MB", csv.string()));
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // a spreadsheet's byte order mark
  std::size_t pos = 0;
  const auto header = next_record(text, pos);
  const auto column = [&](const std::string& name) -> std::size_t {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    throw std::runtime_error(fmt::format(
        "the roster's first line must name the columns login,name,role (it has no '{}')", name));
  };
  const std::size_t login_col = column("login"), name_col = column("name"),
                    role_col = column("role");
  std::vector<RosterEntry> out;
  std::set<std::string> seen;
  for (int line = 2; pos < text.size(); ++line) {
    const auto fields = next_record(text, pos);
    if (fields.size() == 1 && fields[0].empty()) continue;  // a blank line
    const auto field = [&](std::size_t i) { return i < fields.size() ? fields[i] : std::string(); };
    for (const auto& f : fields)
      if (f.size() > kMaxField)
        throw std::runtime_error(
            fmt::format("roster line {}: a field is over {} bytes", line, kMaxField));
    RosterEntry e{normalize_login(field(login_col)), field(name_col), field(role_col), {}};
    if (!is_valid_login(e.login))
      throw std::runtime_error(
          fmt::format("roster line {}: '{}' is not a login (1-64 of a-z, 0-9, '.', '_', '-')", line,
                      e.login.substr(0, 80)));
    if (e.name.empty()) e.name = e.login;
    for (const auto& f : fields)
      if (!is_utf8(f))
        throw std::runtime_error(
            fmt::format("roster line {}: not UTF-8 (save the roster as CSV UTF-8)", line));
    if (!parse_role(e.role))
      throw std::runtime_error(fmt::format("roster line {}: role '{}' is neither student nor staff",
                                           line, e.role.substr(0, 80)));
    if (!seen.insert(e.login).second)
      throw std::runtime_error(fmt::format("roster line {}: '{}' is there twice", line, e.login));
    for (std::size_t i = 0; i < header.size(); ++i)
      if (i != login_col && i != name_col && i != role_col && !header[i].empty())
        e.extra.emplace_back(header[i], field(i));
    out.push_back(std::move(e));
  }
  return out;
}

void make_private(const CourseDir& dir) {
  for (const fs::path& p : {dir.root, dir.files(), dir.work()})
    if (std::error_code ec; fs::is_directory(p, ec))
      fs::permissions(p, fs::perms::owner_all, fs::perm_options::replace);
}

void init_course(const CourseDir& dir, const std::string& game, const std::string& title,
                 const std::vector<RosterEntry>& roster) {
  std::error_code ec;
  if (fs::exists(dir.db(), ec))
    throw std::runtime_error(fmt::format("{} holds a course already", dir.root.string()));
  fs::create_directories(dir.root);
  fs::create_directories(dir.files());
  fs::create_directories(dir.work());
  // The database holds password hashes: its owner's only (SQLite gives its -wal and -shm files
  // the same mode). Hand-in files too: students' code is not for other users of the machine.
  make_private(dir);
  { std::ofstream(dir.db()); }
  fs::permissions(dir.db(), fs::perms::owner_read | fs::perms::owner_write,
                  fs::perm_options::replace);
  Store store(dir.db(), true);
  store.set_setting("game", game);
  store.set_setting("title", title);
  store.set_setting("deadline", "");
  store.set_setting("created", utc_now());
  for (const RosterEntry& e : roster) {
    nlohmann::json extra = nlohmann::json::object();
    for (const auto& [k, v] : e.extra) extra[k] = v;
    store.add_user(e.login, e.name, *parse_role(e.role), extra);
  }
  store.log_event("console", "init",
                  fmt::format("{} ({}), {} on the roster", title, game, roster.size()));
}

ServerLock::ServerLock(const CourseDir& dir) {
  fd_ = ::open(dir.lock().c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot open " + dir.lock().string());
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char holder[64] = {};
    const auto n = ::pread(fd_, holder, sizeof holder - 1, 0);
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error(fmt::format(
        "another server serves {} already (process {}): stop it first", dir.root.string(),
        n > 0 ? std::string(holder, static_cast<std::size_t>(n)) : "unknown"));
  }
  const std::string pid = std::to_string(::getpid());
  if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The pid is only a hint for the message above.
  }
}

ServerLock::~ServerLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace arena::course
