#pragma once
// `arena handin check --forbid-flags PATTERN`: a course that grades the student's own
// optimisations forbids compiler flags such as -O*. The words of the Makefile and of the build
// log's compiler lines are matched against the pattern (a shell glob, fnmatch).
#include <filesystem>
#include <optional>
#include <string>

namespace arena::cli {

struct ForbiddenFlag {
  std::string word;   // "-O2"
  std::string where;  // "Makefile line 3"
  std::string line;   // the line, trimmed
};

// The first word of `file` matching `pattern`: in every line, or with `compiler_lines_only` in
// the lines that run a compiler (gcc, g++, cc, c++, clang).
std::optional<ForbiddenFlag> find_forbidden_flag(const std::filesystem::path& file,
                                                 const std::string& pattern,
                                                 bool compiler_lines_only);

// The hand-in's Makefile (Makefile, makefile or GNUmakefile), or "" when it has none.
std::filesystem::path makefile_of(const std::filesystem::path& root);

}  // namespace arena::cli
