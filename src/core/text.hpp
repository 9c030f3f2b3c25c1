#pragma once
// Small string helpers shared by parsers of outside text.
#include <string>
#include <string_view>

namespace arena {

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

inline std::string to_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

// A printable, bounded copy of untrusted text for error messages and logs.
inline std::string printable(std::string_view s, std::size_t max_len = 80) {
  std::string out;
  for (char c : s.substr(0, max_len)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  if (s.size() > max_len) out += "...";
  return out;
}

}  // namespace arena
