// libFuzzer target: arbitrary bytes through the line splitter and both line parsers, and every
// parsed move through the Fission notation. Nothing may crash, hang or grow without bound.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "games/fission/state.hpp"
#include "protocol/course_lines.hpp"
#include "protocol/line_splitter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  arena::LineSplitter splitter(arena::course::kMaxLineBytes);
  // Feed in two uneven chunks, as a socket would deliver them.
  splitter.feed(bytes.substr(0, size / 3));
  splitter.feed(bytes.substr(size / 3));
  static const arena::fission::State start = arena::fission::State::start();
  while (auto line = splitter.next_line()) {
    if (line->size() > arena::course::kMaxLineBytes) __builtin_trap();
    const auto move = arena::course::parse_client_line(*line);
    if (move) {
      const auto parsed = start.parse_move(*move.value);
      if (parsed && !start.is_legal(*parsed.value)) __builtin_trap();
    }
    const auto msg = arena::course::parse_server_line(*line);
    if (msg && msg.value->kind == arena::course::ServerKind::OpponentMove)
      (void)start.parse_move(msg.value->argument);
  }
  return 0;
}
