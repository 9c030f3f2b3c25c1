#pragma once
// Small string helpers shared by parsers of outside text.
#include <charconv>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace arena {

constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The words of s, separated by spaces and tabs (views into s).
inline std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// A whole decimal number within [lo, hi] into `out` (left as it was on failure): no sign other
// than a leading '-', no trailing characters.
template <class T>
bool parse_number(std::string_view text, T lo, T hi, T& out) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < lo || v > hi) return false;
  out = v;
  return true;
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
