#pragma once
// Reading a tournament's files in tests: its JSON results and its journal's lines.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace arena::testing {

inline nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

inline int count_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  int n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

}  // namespace arena::testing
