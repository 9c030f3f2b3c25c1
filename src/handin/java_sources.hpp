#pragma once
// A hand-in's Java sources: where they are and which classes can be started (have
// `public static void main`), read without a Java compiler.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace arena::handin {

struct JavaSources {
  std::vector<std::string> files;  // relative to the root, sorted: "src/it/unibo/Agent.java"
  std::vector<std::string> mains;  // the classes with a main, sorted: "it.unibo.Agent"
  bool truncated = false;          // more files than are looked at (kMaxJavaFiles)
};

inline constexpr std::size_t kMaxJavaFiles = 5000;

// Every .java under `root` (not following links, leaving out hidden folders and __MACOSX).
JavaSources find_java_sources(const std::filesystem::path& root);

// Whether the source declares `public static void main(String...)`, comments and string
// literals left out; and the class it is in, from the package and the file's name.
bool declares_main(std::string_view source);
std::string java_class_name(std::string_view source, std::string_view file_stem);

}  // namespace arena::handin
