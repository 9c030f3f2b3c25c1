#include "games/soccer/net_weights.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "games/soccer/net_files.hpp"

namespace arena::soccer {

Parsed<NetFile> split_net_file(std::span<const unsigned char> bytes, std::string_view what) {
  const auto newline = std::find(bytes.begin(), bytes.end(), '\n');
  if (newline == bytes.end() || newline - bytes.begin() > 100)
    return Parsed<NetFile>::fail(fmt::format("not a {}: no header line", what));
  return Parsed<NetFile>::ok(
      NetFile{std::string(bytes.begin(), newline),
              bytes.subspan(static_cast<std::size_t>(newline - bytes.begin()) + 1)});
}

Parsed<std::vector<float>> read_weights(std::span<const unsigned char> body, std::size_t count) {
  if (body.size() != count * 4)
    return Parsed<std::vector<float>>::fail(
        fmt::format("the network needs {} bytes of weights, has {}", count * 4, body.size()));
  std::vector<float> w(count);
  const unsigned char* at = body.data();
  for (float& v : w) {
    const std::uint32_t bits = std::uint32_t{at[0]} | std::uint32_t{at[1]} << 8 |
                               std::uint32_t{at[2]} << 16 | std::uint32_t{at[3]} << 24;
    v = std::bit_cast<float>(bits);
    if (!std::isfinite(v))
      return Parsed<std::vector<float>>::fail("the network has a weight not finite");
    at += 4;
  }
  return Parsed<std::vector<float>>::ok(std::move(w));
}

std::optional<std::string_view> builtin_net_file(std::string_view name) {
  for (const EmbeddedFile& file : builtin_net_files())
    if (file.name == name) return file.body;
  return std::nullopt;
}

void append_weights(std::string& out, std::span<const float> weights) {
  for (const float v : weights) {
    const auto bits = std::bit_cast<std::uint32_t>(v);
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(bits >> (8 * i) & 0xFF));
  }
}

}  // namespace arena::soccer
