#pragma once
// A parsed value or the reason it could not be parsed, for text that comes from outside.
#include <optional>
#include <string>
#include <utility>

namespace arena {

template <class T>
struct Parsed {
  std::optional<T> value;
  std::string error;

  static Parsed ok(T v) { return Parsed{std::move(v), {}}; }
  static Parsed fail(std::string why) { return Parsed{std::nullopt, std::move(why)}; }
  explicit operator bool() const { return value.has_value(); }
};

}  // namespace arena
