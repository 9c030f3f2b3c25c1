#include "handin/java_sources.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

namespace arena::handin {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxSourceBytes = 1 << 20;

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

// The source with comments, string and character literals replaced by spaces, so that a
// commented-out main is not taken for one.
std::string code_only(std::string_view s) {
  std::string out(s.size(), ' ');
  std::size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.compare(i, 2, "/*") == 0) {
      const auto end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i++];
      while (i < s.size() && s[i] != q && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      ++i;
    } else {
      out[i] = s[i];
      ++i;
    }
  }
  return out;
}

std::vector<std::string_view> tokens(std::string_view code) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < code.size()) {
    const char c = code[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (ident_char(c)) {
      const std::size_t start = i;
      while (i < code.size() && ident_char(code[i])) ++i;
      out.push_back(code.substr(start, i - start));
    } else {
      out.push_back(code.substr(i++, 1));
    }
  }
  return out;
}

}  // namespace

bool declares_main(std::string_view source) {
  const std::string code = code_only(source);
  const auto t = tokens(code);
  for (std::size_t i = 1; i + 1 < t.size(); ++i) {
    if (t[i] != "main" || t[i - 1] != "void" || t[i + 1] != "(") continue;
    // The modifiers before `void`, back to the end of the previous declaration.
    bool is_public = false, is_static = false;
    for (std::size_t k = i - 1; k-- > 0;) {
      if (t[k] == ";" || t[k] == "{" || t[k] == "}") break;
      is_public = is_public || t[k] == "public";
      is_static = is_static || t[k] == "static";
    }
    if (is_public && is_static) return true;
  }
  return false;
}

std::string java_class_name(std::string_view source, std::string_view file_stem) {
  const std::string code = code_only(source);
  const auto t = tokens(code);
  std::string package;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == "import" || t[i] == "class" || t[i] == "interface") break;
    if (t[i] != "package") continue;
    for (std::size_t k = i + 1; k < t.size() && t[k] != ";"; ++k) package += t[k];
    break;
  }
  return package.empty() ? std::string(file_stem) : package + "." + std::string(file_stem);
}

JavaSources find_java_sources(const fs::path& root) {
  JavaSources out;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const auto name = it->path().filename().string();
    const auto st = it->symlink_status(ec);
    if (fs::is_directory(st) && (name.starts_with(".") || name == "__MACOSX")) {
      it.disable_recursion_pending();
      continue;
    }
    if (!fs::is_regular_file(st) || it->path().extension() != ".java") continue;
    if (out.files.size() >= kMaxJavaFiles) {
      out.truncated = true;
      break;
    }
    out.files.push_back(it->path().lexically_relative(root).generic_string());
    std::ifstream in(it->path(), std::ios::binary);
    std::string text(kMaxSourceBytes, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (declares_main(text)) out.mains.push_back(java_class_name(text, it->path().stem().string()));
  }
  std::sort(out.files.begin(), out.files.end());
  std::sort(out.mains.begin(), out.mains.end());
  return out;
}

}  // namespace arena::handin
