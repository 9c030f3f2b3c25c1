#include "protocol/line_splitter.hpp"

namespace arena {

void LineSplitter::feed(std::string_view bytes) {
  while (!overflowed_ && !bytes.empty()) {
    const auto nl = bytes.find('\n');
    const std::string_view chunk = bytes.substr(0, nl);
    // The bound is on the line without its end: one byte more may be the CR of a CRLF.
    const std::size_t size = partial_.size() + chunk.size();
    const bool too_long =
        size > max_ + 1 ||
        (size == max_ + 1 && (chunk.empty() ? partial_.back() : chunk.back()) != '\r');
    if (too_long) {
      overflowed_ = true;
      partial_.clear();
      return;
    }
    partial_.append(chunk);
    if (nl == std::string_view::npos) return;
    if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
    lines_.push_back(std::move(partial_));
    partial_.clear();
    bytes.remove_prefix(nl + 1);
  }
}

std::optional<std::string> LineSplitter::next_line() {
  if (lines_.empty()) return std::nullopt;
  std::string line = std::move(lines_.front());
  lines_.pop_front();
  return line;
}

}  // namespace arena
