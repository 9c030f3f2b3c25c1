#include "handin/command_template.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/text.hpp"

namespace arena::handin {
namespace {

constexpr std::string_view kKnown =
    "known: {side}, {side:FIRST|SECOND}, {host}, {port}, {white_port}, {black_port}, {move_ms}, "
    "{move_seconds}, {seed}";

struct Name {
  std::string_view name;
  Placeholder placeholder;
};
constexpr Name kNames[] = {
    {"side", Placeholder::Side},
    {"host", Placeholder::Host},
    {"port", Placeholder::Port},
    {"white_port", Placeholder::WhitePort},
    {"black_port", Placeholder::BlackPort},
    {"move_ms", Placeholder::MoveMs},
    {"move_seconds", Placeholder::MoveSeconds},
    {"seed", Placeholder::Seed},
};

// The piece for what is between the braces of a placeholder, or the reason it is none.
Parsed<TemplatePiece> placeholder(std::string_view inside, std::size_t column) {
  TemplatePiece piece;
  piece.literal = false;
  if (inside.substr(0, 5) == "side:") {
    const std::string_view words = inside.substr(5);
    const auto bar = words.find('|');
    if (bar == std::string_view::npos || bar == 0 || bar + 1 == words.size() ||
        words.find('|', bar + 1) != std::string_view::npos)
      return Parsed<TemplatePiece>::fail(fmt::format(
          "{{{}}} at column {} needs the two sides' words, the first's and the second's, as in "
          "{{side:White|Black}}",
          printable(inside), column));
    piece.placeholder = Placeholder::Side;
    piece.first = std::string(words.substr(0, bar));
    piece.second = std::string(words.substr(bar + 1));
    return Parsed<TemplatePiece>::ok(std::move(piece));
  }
  for (const auto& n : kNames)
    if (n.name == inside) {
      piece.placeholder = n.placeholder;
      return Parsed<TemplatePiece>::ok(std::move(piece));
    }
  return Parsed<TemplatePiece>::fail(fmt::format("unknown placeholder {{{}}} at column {} ({})",
                                                 printable(inside), column, kKnown));
}

// Builds the words piece by piece, joining neighbouring literal characters.
class Words {
 public:
  void text(char c) {
    started_ = true;
    if (pieces_.empty() || !pieces_.back().literal) pieces_.push_back({});
    pieces_.back().text += c;
  }
  void piece(TemplatePiece p) {
    started_ = true;
    pieces_.push_back(std::move(p));
  }
  void start() { started_ = true; }  // '' or "" is a word even when empty
  void end() {
    if (started_) words_.push_back(std::move(pieces_));
    pieces_.clear();
    started_ = false;
  }
  std::vector<std::vector<TemplatePiece>> take() { return std::move(words_); }

 private:
  std::vector<std::vector<TemplatePiece>> words_;
  std::vector<TemplatePiece> pieces_;
  bool started_ = false;
};

}  // namespace

bool CommandTemplate::uses(Placeholder p) const {
  for (const auto& word : words)
    for (const auto& piece : word)
      if (!piece.literal && piece.placeholder == p) return true;
  return false;
}

Parsed<CommandTemplate> parse_command_template(std::string_view text) {
  using Result = Parsed<CommandTemplate>;
  if (text.size() > kMaxTemplateBytes)
    return Result::fail(fmt::format("the command is longer than {} bytes", kMaxTemplateBytes));
  Words words;
  char quote = 0;
  std::size_t quote_column = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const std::size_t column = i + 1;
    if (c == '\0' || c == '\n' || c == '\r')
      return Result::fail(fmt::format("a control character at column {}", column));
    if (quote == 0 && (c == ' ' || c == '\t')) {
      words.end();
    } else if (c == '\'' || c == '"') {
      if (quote == 0) {
        quote = c;
        quote_column = column;
        words.start();
      } else if (quote == c) {
        quote = 0;
      } else {
        words.text(c);
      }
    } else if (c == '{' || c == '}') {
      if (i + 1 < text.size() && text[i + 1] == c) {
        words.text(c);
        ++i;
      } else if (c == '}') {
        return Result::fail(
            fmt::format("'}}' at column {} closes nothing (write }}}} for a brace)", column));
      } else {
        const auto close = text.find('}', i + 1);
        if (close == std::string_view::npos)
          return Result::fail(
              fmt::format("unclosed '{{' at column {} (write {{{{ for a brace)", column));
        auto piece = placeholder(text.substr(i + 1, close - i - 1), column);
        if (!piece) return Result::fail(piece.error);
        words.piece(std::move(*piece.value));
        i = close;
      }
    } else {
      words.text(c);
    }
  }
  if (quote != 0)
    return Result::fail(fmt::format("unclosed quote ({}) at column {}", quote, quote_column));
  words.end();
  CommandTemplate out;
  out.text = std::string(text);
  out.words = words.take();
  if (out.words.empty()) return Result::fail("the command is empty");
  return Result::ok(std::move(out));
}

std::vector<std::string> expand(const CommandTemplate& t, const TemplateValues& v) {
  std::vector<std::string> argv;
  for (const auto& word : t.words) {
    std::string out;
    for (const auto& piece : word) {
      if (piece.literal) {
        out += piece.text;
        continue;
      }
      switch (piece.placeholder) {
        case Placeholder::Side: {
          const bool first = v.side == Side::White;
          if (piece.first.empty())
            out += first ? v.first_word : v.second_word;
          else
            out += first ? piece.first : piece.second;
          break;
        }
        case Placeholder::Host:
          out += v.host;
          break;
        case Placeholder::Port:
          out += std::to_string(v.port);
          break;
        case Placeholder::WhitePort:
          out += std::to_string(v.white_port);
          break;
        case Placeholder::BlackPort:
          out += std::to_string(v.black_port);
          break;
        case Placeholder::MoveMs:
          out += std::to_string(v.move_ms);
          break;
        case Placeholder::MoveSeconds:
          out += std::to_string(std::max(1, v.move_ms / 1000));
          break;
        case Placeholder::Seed:
          out += std::to_string(v.seed);
          break;
      }
    }
    argv.push_back(std::move(out));
  }
  return argv;
}

std::pair<std::string_view, std::string_view> side_words(std::string_view game) {
  if (game == "soccer") return {"A", "B"};
  return {"White", "Black"};
}

}  // namespace arena::handin
