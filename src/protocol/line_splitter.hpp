#pragma once
// Splits a byte stream into lines ("\n" or "\r\n"), refusing lines longer than a bound, so that
// no peer can make us buffer without limit.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace arena {

class LineSplitter {
 public:
  explicit LineSplitter(std::size_t max_line_bytes) : max_(max_line_bytes) {}

  // Appends bytes. After an overlong line the splitter is broken and ignores further input.
  void feed(std::string_view bytes);
  // The next complete line, without its line end.
  std::optional<std::string> next_line();
  bool overflowed() const { return overflowed_; }
  std::size_t pending_lines() const { return lines_.size(); }

 private:
  std::size_t max_;
  std::string partial_;
  std::deque<std::string> lines_;
  bool overflowed_ = false;
};

}  // namespace arena
