#include "handin/makefile_rules.hpp"

#include "core/text.hpp"

namespace arena::handin {

std::set<std::string> makefile_targets(std::string_view text) {
  std::set<std::string> out;
  std::size_t i = 0;
  bool continued = false;  // the line before ended in a backslash
  while (i < text.size()) {
    auto end = text.find('\n', i);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(i, end - i);
    i = end + 1;
    const bool was_continued = continued;
    continued = !line.empty() && line.back() == '\\';
    // Recipe lines start with a tab; continuations belong to the line before.
    if (was_continued || line.empty() || line.front() == '\t') continue;
    line = line.substr(0, line.find('#'));
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const auto equals = line.find('=');
    if (equals != std::string_view::npos && equals < colon) continue;  // X = a:b
    if (equals != std::string_view::npos &&
        line.find_first_not_of(':', colon) == equals)  // X := y, X ::= y
      continue;
    for (const auto word : words(line.substr(0, colon)))
      if (!word.starts_with('.') && !word.starts_with('$')) out.emplace(word);
  }
  return out;
}

}  // namespace arena::handin
