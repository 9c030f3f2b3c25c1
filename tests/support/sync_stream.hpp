#pragma once
// An ostream that one thread writes (the server) while another (the test) waits for text in it.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace arena::testing {

class SyncStream : public std::ostream {
 public:
  SyncStream() : std::ostream(&buf_) {}

  std::string text() const {
    std::lock_guard lock(buf_.mutex);
    return buf_.text;
  }
  // True once `needle` has been written, false if it is not there by the timeout.
  bool wait_for(std::string_view needle, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(buf_.mutex);
    return buf_.changed.wait_for(lock, timeout, [&] {
      return buf_.text.find(needle) != std::string::npos;
    });
  }

 private:
  struct Buf : std::streambuf {
    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    std::string text;

    int_type overflow(int_type c) override {
      if (c != traits_type::eof()) {
        const char ch = traits_type::to_char_type(c);
        xsputn(&ch, 1);
      }
      return traits_type::not_eof(c);
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
      {
        std::lock_guard lock(mutex);
        text.append(s, static_cast<std::size_t>(n));
      }
      changed.notify_all();
      return n;
    }
  };
  Buf buf_;
};

}  // namespace arena::testing
