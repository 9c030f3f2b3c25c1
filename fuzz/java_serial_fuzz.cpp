// libFuzzer target: arbitrary bytes through the Java serialization reader with the Mulino limits
// and allow-list, fed in uneven pieces as a socket delivers them; every object through the State
// and Action decoders, and every decoded State or Action written again and read back equal.
// Nothing may crash, hang or grow without bound: the only way out is a StreamError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/java_serial/reader.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_messages.hpp"

namespace {

using namespace arena;

template <class T, class Decode, class Encode>
void round_trip(const T& value, Decode decode, Encode encode) {
  jser::Writer w;
  encode(w, value);
  jser::Reader r(mulino::reader_limits());
  r.feed(w.take());
  const auto v = r.next();
  if (!v || !(decode(r, *v) == value)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  jser::Reader reader(mulino::reader_limits());
  try {
    for (std::size_t at = 0, step = 1; at < size; at += step, step = step * 2 + 1) {
      reader.feed(bytes.substr(at, step));
      while (auto v = reader.next()) {
        try {
          round_trip(mulino::decode_state(reader, *v), mulino::decode_state, mulino::encode_state);
        } catch (const jser::StreamError&) {
        }
        try {
          round_trip(mulino::decode_action(reader, *v), mulino::decode_action, mulino::encode_action);
        } catch (const jser::StreamError&) {
        }
      }
    }
  } catch (const jser::StreamError&) {
  }
  return 0;
}
