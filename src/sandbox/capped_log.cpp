#include "sandbox/capped_log.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "referee/record.hpp"

namespace arena {
namespace {

using Clock = std::chrono::steady_clock;

// How often a growing log is written out while the agent runs (viewers may follow it).
constexpr auto kRewriteInterval = std::chrono::seconds(2);
// After the stop, how long the reader still takes what the pipe holds.
constexpr int kFinalDrainMs = 200;

// The last `cap` bytes of everything appended: a ring over one string.
class Tail {
 public:
  explicit Tail(std::uint64_t cap) : cap_(cap) {}
  void append(const char* data, std::size_t n) {
    total_ += n;
    if (n >= cap_) {
      buf_.assign(data + (n - cap_), cap_);
      start_ = 0;
      return;
    }
    if (buf_.size() < cap_) {  // still filling: the oldest byte is at 0
      const std::size_t fill = std::min<std::size_t>(cap_ - buf_.size(), n);
      buf_.append(data, fill);
      data += fill;
      n -= fill;
    }
    if (n == 0) return;
    // Full: overwrite the oldest bytes, wrapping round once at most (n < cap_).
    const std::size_t first = std::min<std::size_t>(n, cap_ - start_);
    std::memcpy(&buf_[start_], data, first);
    std::memcpy(&buf_[0], data + first, n - first);
    start_ = (start_ + n) % cap_;
  }
  std::string text() const {
    std::string out;
    if (total_ > buf_.size())
      out = fmt::format(
          "[arena: the first {} bytes of this log were dropped; the last {} are kept]\n",
          total_ - buf_.size(), buf_.size());
    out.append(buf_, start_, std::string::npos);
    out.append(buf_, 0, start_);
    return out;
  }

 private:
  std::uint64_t cap_;
  std::string buf_;
  std::size_t start_ = 0;  // oldest byte, once full
  std::uint64_t total_ = 0;
};

}  // namespace

CappedLog::CappedLog(std::filesystem::path file, std::uint64_t cap_bytes)
    : file_(std::move(file)), cap_(std::max<std::uint64_t>(cap_bytes, 1)) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  if (::pipe2(stop_fds_, O_CLOEXEC) != 0) {
    ::close(read_fd_);
    ::close(write_fd_);
    throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
  }
  write_file_atomically(file_, "", false);  // fails now if the file cannot be written
  reader_ = std::thread([this] { drain(); });
}

void CappedLog::close_write_end() {
  if (write_fd_ >= 0) ::close(write_fd_);
  write_fd_ = -1;
}

CappedLog::~CappedLog() {
  close_write_end();
  const char stop = 1;
  (void)!::write(stop_fds_[1], &stop, 1);
  reader_.join();
  for (int fd : {read_fd_, stop_fds_[0], stop_fds_[1]}) ::close(fd);
}

void CappedLog::drain() {
  Tail tail(cap_);
  bool dirty = false, stopping = false;
  auto last_write = Clock::now();
  Clock::time_point stop_deadline;
  auto save = [&] {
    try {
      write_file_atomically(file_, tail.text(), false);
    } catch (const std::exception&) {
      // A log is a convenience: the game goes on without it.
    }
    dirty = false;
    last_write = Clock::now();
  };
  char buf[65536];
  while (true) {
    pollfd p[2] = {{read_fd_, POLLIN, 0}, {stop_fds_[0], POLLIN, 0}};
    const int ready = ::poll(p, stopping ? 1 : 2, stopping ? kFinalDrainMs : 1000);
    if (ready < 0 && errno == EINTR) continue;
    if (!stopping && (p[1].revents & POLLIN)) {
      // The child is gone; take what is buffered, but never wait on a writer that escaped.
      stopping = true;
      stop_deadline = Clock::now() + std::chrono::milliseconds(kFinalDrainMs);
      ::fcntl(read_fd_, F_SETFL, ::fcntl(read_fd_, F_GETFL) | O_NONBLOCK);
    }
    if (p[0].revents & (POLLIN | POLLHUP)) {
      const ssize_t n = ::read(read_fd_, buf, sizeof buf);
      if (n > 0) {
        tail.append(buf, static_cast<std::size_t>(n));
        dirty = true;
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        break;  // every writer has closed
      } else if (stopping) {
        break;
      }
    } else if (stopping) {
      break;
    }
    if (stopping && Clock::now() >= stop_deadline) break;
    if (dirty && Clock::now() - last_write >= kRewriteInterval) save();
  }
  save();
}

}  // namespace arena
