#pragma once
// Reading the course viewer's keys from a terminal: D forward, A back, Esc quits, plus the arrows,
// Home/End and g/G/</> for the first and last position. Shared by the terminal replays.
#include <termios.h>

namespace arena::view {

// The terminal in raw mode (no echo, key by key) until destroyed; nothing happens when `fd` is
// not a terminal.
class RawTerminal {
 public:
  explicit RawTerminal(int fd);
  ~RawTerminal();
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;

 private:
  int fd_;
  termios saved_{};
  bool active_ = false;
};

enum class Key { None, Forward, Back, Start, End, Quit };

// Waits up to `timeout_ms` (-1: for ever) for a key. None: no key in time or a key with no
// meaning; Quit also when the input ends.
Key read_key(int fd, int timeout_ms);

}  // namespace arena::view
