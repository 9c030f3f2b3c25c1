#pragma once
// An agent's output, kept to its last `cap` bytes: a bot that prints gigabytes costs the referee
// the reading, not the disk. The child writes into a pipe; a thread of ours keeps the tail and
// rewrites the file now and then and at the end, with a first line saying what was dropped.
#include <cstdint>
#include <filesystem>
#include <thread>

namespace arena {

class CappedLog {
 public:
  // Throws std::runtime_error when the pipe or the file cannot be made.
  CappedLog(std::filesystem::path file, std::uint64_t cap_bytes);
  // Reads what is still in the pipe (bounded wait), writes the file and stops.
  ~CappedLog();
  CappedLog(const CappedLog&) = delete;
  CappedLog& operator=(const CappedLog&) = delete;

  // The pipe's write end, for the child (the caller closes its copy after spawning).
  int write_fd() const { return write_fd_; }
  void close_write_end();

 private:
  std::filesystem::path file_;
  std::uint64_t cap_;
  int read_fd_ = -1, write_fd_ = -1;
  int stop_fds_[2] = {-1, -1};
  std::thread reader_;

  void drain();
};

}  // namespace arena
