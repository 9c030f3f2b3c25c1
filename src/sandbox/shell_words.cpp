#include "sandbox/shell_words.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace arena {
namespace {

bool is_operator_char(char c) {
  return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')';
}

bool is_assignment(const ShellWord& w) {
  if (w.op || w.text.empty() || std::isdigit(static_cast<unsigned char>(w.text[0]))) return false;
  const auto eq = w.text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  return std::all_of(w.text.begin(), w.text.begin() + static_cast<long>(eq), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// Words the shell runs itself: no program file to look for.
constexpr std::array<std::string_view, 38> kShellOwn = {
    "!",       "{",    "}",    "[",    "[[",     ".",     ":",      "alias", "case",  "cd",
    "command", "do",   "done", "echo", "elif",   "else",  "esac",   "eval",  "exit",  "export",
    "false",   "fi",   "for",  "if",   "printf", "read",  "return", "set",   "shift", "source",
    "test",    "then", "trap", "true", "ulimit", "umask", "until",  "while"};

}  // namespace

std::vector<ShellWord> shell_words(std::string_view s) {
  std::vector<ShellWord> out;
  ShellWord w;
  bool in_word = false;
  auto finish = [&] {
    if (in_word) out.push_back(std::move(w));
    w = {};
    in_word = false;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      finish();
    } else if (c == '#' && !in_word) {
      break;
    } else if (is_operator_char(c)) {
      finish();
      w.op = true;
      w.text = c;
      if (i + 1 < s.size() && s[i + 1] == c && c != '(' && c != ')') w.text += s[++i];
      in_word = true;
      finish();
    } else if (c == '\\') {
      if (i + 1 < s.size() && s[i + 1] != '\n') w.text += s[i + 1];
      ++i;
      in_word = true;
    } else if (c == '\'') {
      const auto end = s.find('\'', i + 1);
      w.text += s.substr(i + 1, (end == std::string_view::npos ? s.size() : end) - i - 1);
      i = end == std::string_view::npos ? s.size() : end;
      in_word = true;
    } else if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '$' || s[i] == '`') w.expands = true;
        if (s[i] == '\\' && i + 1 < s.size() &&
            std::string_view("$`\"\\").find(s[i + 1]) != std::string_view::npos)
          ++i;
        w.text += s[i];
      }
      in_word = true;
    } else {
      if (c == '$' || c == '`' || c == '*' || c == '?' || c == '[' || (c == '~' && !in_word))
        w.expands = true;
      w.text += c;
      in_word = true;
    }
  }
  finish();
  return out;
}

std::optional<std::string> command_program(const std::vector<ShellWord>& words) {
  std::size_t i = 0;
  while (i < words.size() && is_assignment(words[i])) ++i;
  if (i < words.size() && !words[i].op && words[i].text == "exec") ++i;
  if (i < words.size() && !words[i].op && words[i].text == "env") {
    ++i;
    while (i < words.size() && (is_assignment(words[i]) || words[i].text == "-" ||
                                words[i].text == "-i" || words[i].text == "--"))
      ++i;
  }
  if (i >= words.size() || words[i].op || words[i].expands || words[i].text.empty())
    return std::nullopt;
  const std::string& program = words[i].text;
  if (std::find(kShellOwn.begin(), kShellOwn.end(), program) != kShellOwn.end())
    return std::nullopt;
  return program;
}

std::vector<std::string> path_candidates(const ShellWord& word) {
  std::vector<std::string> out;
  if (word.op || word.expands || word.text.empty()) return out;
  std::vector<std::string> whole = {word.text};
  if (const auto eq = word.text.find('='); eq != std::string::npos && eq + 1 < word.text.size())
    whole.push_back(word.text.substr(eq + 1));
  for (const auto& w : whole) {
    out.push_back(w);
    if (w.find(':') == std::string::npos) continue;
    std::size_t start = 0;
    while (start <= w.size()) {
      const auto end = std::min(w.find(':', start), w.size());
      if (end > start) out.push_back(w.substr(start, end - start));
      start = end + 1;
    }
  }
  return out;
}

}  // namespace arena
