#pragma once
// What the Paper Soccer networks' files share (value_net.hpp, policy_net.hpp): a header line of
// text, then the weights as little-endian 32-bit floats, every one of them finite.
#include <span>
#include <string>
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

}  // namespace arena::soccer
