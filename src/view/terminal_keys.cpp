#include "view/terminal_keys.hpp"

#include <poll.h>
#include <unistd.h>

namespace arena::view {

RawTerminal::RawTerminal(int fd) : fd_(fd) {
  if (::tcgetattr(fd_, &saved_) != 0) return;
  termios raw = saved_;
  raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO | ISIG | IEXTEN));
  raw.c_iflag &= static_cast<tcflag_t>(~(IXON | ICRNL));
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  active_ = ::tcsetattr(fd_, TCSAFLUSH, &raw) == 0;
}

RawTerminal::~RawTerminal() {
  if (active_) ::tcsetattr(fd_, TCSAFLUSH, &saved_);
}

namespace {

// Waits up to `timeout_ms` for a byte; -1 when none came, -2 at end of input.
int read_byte(int fd, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0) return -1;
  unsigned char c = 0;
  const ssize_t n = ::read(fd, &c, 1);
  if (n <= 0) return -2;
  return c;
}

}  // namespace

Key read_key(int fd, int timeout_ms) {
  const int c = read_byte(fd, timeout_ms);
  switch (c) {
    case -1:
      return Key::None;
    case -2:
      return Key::Quit;
    case 'd':
    case 'D':
    case ' ':
      return Key::Forward;
    case 'a':
    case 'A':
      return Key::Back;
    case 'q':
    case 'Q':
    case 3:
    case 4:
      return Key::Quit;
    case '<':
    case 'g':
      return Key::Start;
    case '>':
    case 'G':
      return Key::End;
    case 27:
      break;
    default:
      return Key::None;
  }
  // Esc alone quits (as in the course viewer); Esc [ C / D / H / F and Esc O H / F are keys.
  const int b = read_byte(fd, 30);
  if (b != '[' && b != 'O') return Key::Quit;
  int k = read_byte(fd, 30);
  if (k >= '0' && k <= '9') {  // Esc [ 1 ~ (Home) and Esc [ 4 ~ (End), with any modifiers
    const int digit = k;
    do k = read_byte(fd, 30);
    while (k >= 0 && k != '~' && k < 0x40);
    return digit == '1' || digit == '7'   ? Key::Start
           : digit == '4' || digit == '8' ? Key::End
                                          : Key::None;
  }
  switch (k) {
    case 'C':
      return Key::Forward;
    case 'D':
      return Key::Back;
    case 'H':
      return Key::Start;
    case 'F':
      return Key::End;
    default:
      return Key::None;
  }
}

}  // namespace arena::view
