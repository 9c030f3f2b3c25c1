#pragma once
// A course folder: course.db (SQLite), files/ (hand-ins by hash), work/ (each check's folder),
// server.lock (held by the one server that serves it).
#include <filesystem>
#include <string>
#include <vector>

namespace arena::course {

struct CourseDir {
  std::filesystem::path root;
  std::filesystem::path db() const { return root / "course.db"; }
  std::filesystem::path files() const { return root / "files"; }
  std::filesystem::path work() const { return root / "work"; }
  std::filesystem::path lock() const { return root / "server.lock"; }
};

// A roster line: login, name, role (student or staff); the other columns are kept by name.
struct RosterEntry {
  std::string login, name, role;
  std::vector<std::pair<std::string, std::string>> extra;
};

// Reads a roster CSV (a header line with at least login,name,role; RFC 4180 quoting). Throws
// std::runtime_error naming the line for anything wrong: a bad login, an unknown role, a repeat.
std::vector<RosterEntry> read_roster(const std::filesystem::path& csv);

// Logins are what people type and what goes into names of files and games: 1-64 of a-z 0-9
// . _ -, not starting with '.' or '-'.
bool is_valid_login(const std::string& login);
// Logins are compared without case: "Mario.Rossi" is "mario.rossi" (ASCII letters only).
std::string normalize_login(std::string login);

// The folder, files/ and work/ made readable by their owner only: they hold the password hashes
// and the students' code. (A check's sandbox is given its hand-in's folder by bind mounts.)
void make_private(const CourseDir& dir);

// Makes the course folder (which must not hold a course yet) with its database, settings and
// roster. Throws std::runtime_error with the reason.
void init_course(const CourseDir& dir, const std::string& game, const std::string& title,
                 const std::vector<RosterEntry>& roster);

// Held while a server serves the folder: a second server (or a second `course serve`) is refused
// with who holds it. Released when the process ends, however it ends.
class ServerLock {
 public:
  explicit ServerLock(const CourseDir& dir);  // throws std::runtime_error when taken
  ~ServerLock();
  ServerLock(const ServerLock&) = delete;
  ServerLock& operator=(const ServerLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace arena::course
