#pragma once
// What the Paper Soccer networks' files share (value_net.hpp, policy_net.hpp): a header line of
// text, then the weights as little-endian 32-bit floats, every one of them finite.
#include <fmt/format.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"

namespace arena::soccer {

struct NetFile {
  std::string header;                   // the first line, without its newline
  std::span<const unsigned char> body;  // the bytes after it
};

// The header line (at most 100 bytes) and the body; `what` names the file in the error.
Parsed<NetFile> split_net_file(std::span<const unsigned char> bytes, std::string_view what);
// Exactly `count` weights from the body.
Parsed<std::vector<float>> read_weights(std::span<const unsigned char> body, std::size_t count);
void append_weights(std::string& out, std::span<const float> weights);

// The built-in file of that name (net_files.hpp), if there is one.
std::optional<std::string_view> builtin_net_file(std::string_view name);

// The network (ValueNet, PolicyNet: one file for each type) of the built-in file `name`, parsed
// once; nullptr when the build has no such file, or, with a message naming `what`, when it does
// not parse.
template <typename Net>
const Net* builtin_net(std::string_view name, std::string_view what) {
  static const std::optional<Net> net = [&]() -> std::optional<Net> {
    const std::optional<std::string_view> body = builtin_net_file(name);
    if (!body) return std::nullopt;
    Parsed<Net> parsed =
        Net::parse({reinterpret_cast<const unsigned char*>(body->data()), body->size()});
    if (!parsed) {
      fmt::print(stderr, "arena: the built-in Paper Soccer {}: {}\n", what, parsed.error);
      return std::nullopt;
    }
    return std::move(*parsed.value);
  }();
  return net ? &*net : nullptr;
}

}  // namespace arena::soccer
