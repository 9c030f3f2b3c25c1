#include "cli/handin_flags.hpp"

#include <fnmatch.h>

#include <fstream>
#include <sstream>

namespace arena::cli {
namespace {

bool runs_compiler(const std::string& line) {
  for (const char* name : {"gcc", "g++", "cc", "c++", "clang"})
    if (line.find(name) != std::string::npos) return true;
  return false;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

}  // namespace

std::optional<ForbiddenFlag> find_forbidden_flag(const std::filesystem::path& file,
                                                 const std::string& pattern,
                                                 bool compiler_lines_only) {
  std::ifstream in(file);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (compiler_lines_only && !runs_compiler(line)) continue;
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      // A flag inside quotes or after '=' (CFLAGS=-O2) is still that flag.
      for (const std::string& candidate :
           {word, word.substr(word.find('=') == std::string::npos ? 0 : word.find('=') + 1)}) {
        std::string bare = candidate;
        std::erase_if(bare, [](char c) { return c == '"' || c == '\''; });
        if (::fnmatch(pattern.c_str(), bare.c_str(), 0) == 0)
          return ForbiddenFlag{bare, file.filename().string() + " line " + std::to_string(number),
                               trimmed(line)};
      }
    }
  }
  return std::nullopt;
}

std::filesystem::path makefile_of(const std::filesystem::path& root) {
  for (const char* name : {"GNUmakefile", "makefile", "Makefile"})
    if (std::filesystem::is_regular_file(root / name)) return root / name;
  return {};
}

}  // namespace arena::cli
