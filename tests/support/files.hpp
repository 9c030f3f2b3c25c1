#pragma once
// Reading whole files in tests: records, logs, and the recorded fixtures in tests/data.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace arena::testing {

// The file's bytes; empty when it cannot be opened (tests compare the text, which then fails).
inline std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A file under tests/data (ARENA_TEST_DATA); a missing file fails the test.
inline std::string read_test_data(const std::string& relative) {
  const std::filesystem::path path = std::filesystem::path(ARENA_TEST_DATA) / relative;
  EXPECT_TRUE(std::filesystem::exists(path)) << "cannot open " << path;
  return read_bytes(path);
}

}  // namespace arena::testing
