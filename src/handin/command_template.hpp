#pragma once
// How a course's agent is started, with arena's seat and limits put where that agent expects
// them: "java -jar a.jar {side:-w|-b} -t {move_seconds}" becomes
// {"java", "-jar", "a.jar", "-w", "-t", "60"}. No shell: the words are split on spaces and tabs,
// '...' and "..." group words (placeholders are replaced inside them too, and a replaced value
// never splits a word), {{ and }} are literal braces.
//
// Placeholders: {side} (the game's own words: White|Black, or A|B in Paper Soccer, where A is
// player 1), {side:FIRST|SECOND} (the words this agent takes), {host}, {port}, {white_port},
// {black_port}, {move_ms}, {move_seconds} (whole seconds, rounded down, at least 1), {seed}.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/parse_result.hpp"
#include "core/side.hpp"

namespace arena::handin {

enum class Placeholder { Side, Host, Port, WhitePort, BlackPort, MoveMs, MoveSeconds, Seed };

struct TemplatePiece {
  bool literal = true;
  std::string text;  // a literal's characters
  Placeholder placeholder = Placeholder::Side;
  std::string first, second;  // {side:FIRST|SECOND}; empty: the game's own words
};

struct CommandTemplate {
  std::string text;                               // as written
  std::vector<std::vector<TemplatePiece>> words;  // one list of pieces per word
  bool uses(Placeholder p) const;
};

struct TemplateValues {
  Side side = Side::White;  // the seat: White, or player 1 (A) in Paper Soccer
  // The game's own words for {side}: side_words(game).
  std::string_view first_word = "White", second_word = "Black";
  std::string host = "127.0.0.1";
  int port = 0, white_port = 0, black_port = 0;
  int move_ms = 1000;
  std::uint64_t seed = 0;
};

inline constexpr std::size_t kMaxTemplateBytes = 4096;

// The template, or why it cannot be one: "unknown placeholder {colour} at column 12 (known:
// ...)", "unclosed '{' at column 5", "unclosed quote (\") at column 9", "the command is empty".
Parsed<CommandTemplate> parse_command_template(std::string_view text);

// The program and its arguments for these values.
std::vector<std::string> expand(const CommandTemplate& t, const TemplateValues& values);

// The words a game's agents were given for the two sides: White|Black, or A|B in Paper Soccer.
std::pair<std::string_view, std::string_view> side_words(std::string_view game);

}  // namespace arena::handin
