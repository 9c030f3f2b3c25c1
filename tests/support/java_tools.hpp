#pragma once
// The JDK's tools for tests that run real Java programs: from $JAVA_HOME/bin, else from PATH.
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

namespace arena::testing {

// The path of a JDK tool (java, javac, jar), or "" when it is not installed.
inline std::string find_java_tool(const std::string& name) {
  namespace fs = std::filesystem;
  if (const char* home = std::getenv("JAVA_HOME")) {
    const fs::path p = fs::path(home) / "bin" / name;
    if (fs::exists(p)) return p.string();
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path p = fs::path(dir) / name;
    if (!dir.empty() && fs::exists(p)) return p.string();
  }
  return {};
}

// Why the tests' Java programs, compiled when the tests were built (tests/CMakeLists.txt), cannot
// run here; "" when they can. `built` is what the build made, "" when it found no JDK.
inline std::string java_programs_missing(const std::string& built) {
  if (built.empty())
    return "built without a JDK: bash scripts/setup.sh installs default-jdk-headless, then "
           "configure and build again";
  if (find_java_tool("java").empty()) return "no java on this machine (PATH or $JAVA_HOME/bin)";
  return {};
}

}  // namespace arena::testing
