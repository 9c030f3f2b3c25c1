#pragma once
// The words of an agent's shell command, read the way /bin/sh splits them (quotes, backslashes,
// operators), so that arena knows which program a command starts and which files it names.
// Only a reading: the shell still runs the command.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arena {

struct ShellWord {
  std::string text;      // without its quotes
  bool op = false;       // an operator: ; & | < > ( ) and their pairs
  bool expands = false;  // holds an unquoted $, `, *, ?, [ or a leading ~: the shell changes it
};

// The words up to the end of the command or an unquoted comment.
std::vector<ShellWord> shell_words(std::string_view command);

// The program the command's first simple command runs, as written ("./bot", "python3"), after
// variable assignments, `exec` and `env`; nullopt when the shell decides it (a builtin, a keyword,
// an expansion).
std::optional<std::string> command_program(const std::vector<ShellWord>& words);

// The pieces of a word that may be paths: the word, the value after its first '=' (--data=DIR),
// and the parts of either between ':' (java -cp a.jar:lib/b.jar).
std::vector<std::string> path_candidates(const ShellWord& word);

}  // namespace arena
