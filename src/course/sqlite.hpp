#pragma once
// A thin RAII layer over SQLite's C API: a connection, prepared statements with bound parameters
// (the only way values reach SQL here), and transactions that roll back unless committed.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace arena::course {

class Statement;

class Database {
 public:
  // Opens (creating it when `create`) with foreign keys on, WAL, and a busy timeout so that a
  // second process (`arena course password` beside the server) waits for the lock. Throws
  // std::runtime_error with SQLite's message.
  Database(const std::filesystem::path& file, bool create);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // SQL without parameters (schema, pragmas).
  void exec(const std::string& sql);
  Statement prepare(std::string_view sql);
  std::int64_t last_insert_id() const;
  int changes() const;
  sqlite3* handle() { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are numbered from 1, in the order of the ?s.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::string& value) {
    return bind(index, std::string_view(value));
  }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind_null(int index);
  Statement& bind(int index, const std::optional<std::string>& value);

  // Binds the arguments to ?1, ?2, ... in order.
  template <typename... Args>
  Statement& with(const Args&... args) {
    int i = 0;
    (bind(++i, args), ...);
    return *this;
  }

  // The next row (true) or the end (false); throws on an error (a constraint, a full disk).
  bool step();
  // Runs a statement that gives no rows.
  void run();

  std::int64_t integer(int column) const;
  std::string text(int column) const;
  std::optional<std::string> optional_text(int column) const;
  bool is_null(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE (the write lock at once, so two writers never deadlock), COMMIT on commit(),
// ROLLBACK when it ends without one (an exception).
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace arena::course
