// jar_main_class(): the Main-Class of a jar's manifest, as `java -jar` reads it.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"
#include "handin/archive_reader.hpp"
#include "handin/unpack.hpp"

namespace arena::handin {
namespace {

constexpr std::size_t kMaxManifestBytes = 1 << 20;
constexpr int kMaxJarEntries = 200'000;
constexpr std::string_view kNoMainClass = "the jar has no Main-Class in META-INF/MANIFEST.MF";

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && to_upper(a) == to_upper(b);
}

// The manifest's main section as logical lines: a line that starts with one space continues the
// one before (72-byte lines are wrapped so). Stops at the first blank line.
std::vector<std::string> main_section(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t end = std::min(text.find_first_of("\r\n", i), text.size());
    const std::string_view line = text.substr(i, end - i);
    i = end + 1;  // CR LF, CR or LF
    if (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n') ++i;
    if (line.empty()) break;
    if (line.front() == ' ' && !lines.empty())
      lines.back().append(line.substr(1));
    else
      lines.emplace_back(line);
  }
  return lines;
}

}  // namespace

Parsed<std::string> jar_main_class(const std::filesystem::path& jar) {
  const int fd = ::open(jar.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Parsed<std::string>::fail("cannot open the jar");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  ArchiveReader reader;
  if (!reader.open_fd(fd))
    return Parsed<std::string>::fail(reader.unknown_format()
                                         ? std::string("not a jar (zip) file")
                                         : "cannot read the jar: " + reader.error());
  archive* a = reader.get();
  archive_entry* e = nullptr;
  for (int n = 0; n < kMaxJarEntries; ++n) {
    const int status = archive_read_next_header(a, &e);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN ||
        (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_ZIP)
      return Parsed<std::string>::fail("not a jar (zip) file");
    const char* name = archive_entry_pathname(e);
    if (name == nullptr || !same_ignoring_case(name, "META-INF/MANIFEST.MF")) continue;
    std::string text;
    char buf[16 * 1024];
    while (text.size() < kMaxManifestBytes) {
      const la_ssize_t got = archive_read_data(a, buf, sizeof buf);
      if (got < 0)
        return Parsed<std::string>::fail("cannot read META-INF/MANIFEST.MF: " + reader.error());
      if (got == 0) break;
      text.append(buf, static_cast<std::size_t>(got));
    }
    for (const auto& line : main_section(text)) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      if (!same_ignoring_case(trim(std::string_view(line).substr(0, colon)), "Main-Class"))
        continue;
      const auto value = trim(std::string_view(line).substr(colon + 1));
      if (value.empty()) break;
      return Parsed<std::string>::ok(std::string(value));
    }
    return Parsed<std::string>::fail(std::string(kNoMainClass));
  }
  return Parsed<std::string>::fail("the jar has no META-INF/MANIFEST.MF");
}

}  // namespace arena::handin
