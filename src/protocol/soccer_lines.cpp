#include "protocol/soccer_lines.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace arena::soccer_wire {
namespace {

// A decimal count 1..kMaxTurnSteps without sign or leading zeros.
Parsed<std::size_t> parse_count(std::string_view s) {
  if (s.empty()) return Parsed<std::size_t>::fail("the step count is missing");
  if (s.size() > 3)
    return Parsed<std::size_t>::fail(fmt::format("'{}' steps is too many", printable(s, 12)));
  std::size_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return Parsed<std::size_t>::fail(fmt::format("'{}' is not a step count", printable(s, 12)));
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  if (s.size() > 1 && s.front() == '0')
    return Parsed<std::size_t>::fail(fmt::format("'{}' has a leading zero", printable(s, 12)));
  if (n == 0) return Parsed<std::size_t>::fail("a turn has at least one step");
  if (n > kMaxTurnSteps) return Parsed<std::size_t>::fail(fmt::format("{} steps is too many", n));
  return Parsed<std::size_t>::ok(n);
}

bool is_direction(std::string_view s) {
  return s.size() == 1 && s[0] >= '0' && s[0] <= '7';
}

}  // namespace

std::string start_line() {
  return "S\n";
}
std::string finish_line() {
  return "F\n";
}
std::string move_line(const Steps& steps) {
  return "M " + turn_text(steps) + "\n";
}

std::string turn_text(const Steps& steps) {
  std::string out = std::to_string(steps.size());
  for (std::uint8_t d : steps) {
    out += ' ';
    out += static_cast<char>('0' + d);
  }
  return out;
}

Steps rotated(const Steps& steps) {
  Steps out(steps);
  for (std::uint8_t& d : out) d = static_cast<std::uint8_t>((d + 4) % 8);
  return out;
}

Parsed<Steps> parse_bot_line(std::string_view line) {
  if (line.empty()) return Parsed<Steps>::fail("empty line");
  if (line.size() > kMaxLineBytes) return Parsed<Steps>::fail("line too long");
  if (line.substr(0, 2) != "M ")
    return Parsed<Steps>::fail(fmt::format("'{}' does not start with \"M \"", printable(line)));
  std::string_view rest = line.substr(2);
  const auto space = rest.find(' ');
  const auto count = parse_count(rest.substr(0, space));
  if (!count) return Parsed<Steps>::fail(count.error);
  const std::size_t n = *count.value;
  // After the count: exactly n times " d", so the rest of the line has 2n bytes.
  rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space);
  Steps steps;
  steps.reserve(n);
  while (!rest.empty()) {
    if (rest.size() < 2 || rest[0] != ' ' || !is_direction(rest.substr(1, 1)) ||
        (rest.size() > 2 && rest[2] != ' '))
      return Parsed<Steps>::fail(fmt::format(
          "'{}' is not \"M N d1 .. dN\" with single spaces and directions 0..7", printable(line)));
    if (steps.size() == n)
      return Parsed<Steps>::fail(fmt::format("more than the {} directions announced", n));
    steps.push_back(static_cast<std::uint8_t>(rest[1] - '0'));
    rest.remove_prefix(2);
  }
  if (steps.size() != n)
    return Parsed<Steps>::fail(fmt::format("{} directions announced, {} given", n, steps.size()));
  return Parsed<Steps>::ok(std::move(steps));
}

Parsed<RefereeMessage> parse_referee_line(std::string_view line) {
  std::vector<std::string_view> words;
  line = trim(line);
  while (!line.empty()) {
    std::size_t end = 0;
    while (end < line.size() && !is_space(line[end])) ++end;
    words.push_back(line.substr(0, end));
    line = trim(line.substr(end));
  }
  if (words.empty()) return Parsed<RefereeMessage>::fail("empty line");
  if (words.size() == 1 && words[0] == "S")
    return Parsed<RefereeMessage>::ok({RefereeKind::Start, {}});
  if (words.size() == 1 && words[0] == "F")
    return Parsed<RefereeMessage>::ok({RefereeKind::Finish, {}});
  if (words[0] != "M" || words.size() < 2)
    return Parsed<RefereeMessage>::fail(fmt::format("unknown message '{}'", printable(words[0])));
  const auto count = parse_count(words[1]);
  if (!count) return Parsed<RefereeMessage>::fail(count.error);
  if (words.size() - 2 != *count.value)
    return Parsed<RefereeMessage>::fail(
        fmt::format("{} directions announced, {} given", *count.value, words.size() - 2));
  RefereeMessage m{RefereeKind::Move, {}};
  for (std::size_t i = 2; i < words.size(); ++i) {
    if (!is_direction(words[i]))
      return Parsed<RefereeMessage>::fail(
          fmt::format("'{}' is not a direction 0..7", printable(words[i], 12)));
    m.steps.push_back(static_cast<std::uint8_t>(words[i][0] - '0'));
  }
  return Parsed<RefereeMessage>::ok(std::move(m));
}

}  // namespace arena::soccer_wire
