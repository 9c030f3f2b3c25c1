#pragma once
// A student's hand-in, unpacked into a new folder that nothing in the hand-in can write outside.
//
// Accepted: a zip (.zip), a tar (.tar, .tar.gz/.tgz, .tar.xz), told apart by their content, not
// their name; a folder (copied by the same rules); a .jar (kept whole: the agent is
// `java -jar X.jar`, so it is copied as one file, after its entries were checked like a zip's).
// Refused, with the entry's name and the reason: absolute paths, ".." in a path, a path through
// a symbolic link, links that leave the folder, hard links, devices, fifos and sockets, and
// anything over the limits below (counted in bytes really written, never from headers).
// Symbolic links are kept when relative and inside the folder; they are made after every file,
// so nothing is written through one. See docs/handin.md.
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/parse_result.hpp"

namespace arena::handin {

struct UnpackLimits {
  std::uint64_t max_total_bytes = 256ull << 20;  // every file's bytes together
  std::uint64_t max_file_bytes = 64ull << 20;    // one file
  std::uint64_t max_entries = 10'000;            // files, folders and links
  int max_depth = 32;                            // folders above a name: a/b/c is 3
  std::size_t max_path_bytes = 1024;             // a whole relative path
  std::size_t max_name_bytes = 255;              // one part of a path
  // Unpacked bytes per byte of input, checked once more than `ratio_after_bytes` were written:
  // a compression bomb is refused early, long before the size limits (0: no ratio check).
  std::uint64_t max_ratio = 1000;
  std::uint64_t ratio_after_bytes = 16ull << 20;
};

enum class InputKind { Folder, Zip, Tar, Jar };

std::string_view input_kind_name(InputKind k);  // "folder", "zip", "tar", "jar"

struct UnpackResult {
  bool ok = false;
  std::string reason;  // why it was refused: "path leaves the folder ('..')", "file is over 64 MB"
  std::string entry;   // the entry it was refused on (printable, bounded), if any
  InputKind kind = InputKind::Folder;
  std::string compression;  // the tar's filter: "gzip", "xz" or "" (none)
  std::uint64_t files = 0, folders = 0, links = 0;
  std::uint64_t bytes = 0;  // bytes written (for a jar: its entries' unpacked bytes)
  // Where the content is: dest, or its only folder when everything is in one (alice/Makefile).
  std::filesystem::path root;

  // "refused: file is over the limit of 64 MB (64 MB): 'big.bin'", for people.
  std::string message() const;
};

// Unpacks `input` into `dest`, which must not exist yet (it is created, and removed again when
// the hand-in is refused). Never throws for what is in the input; I/O failures on our side are
// refusals too, with the system's reason.
UnpackResult unpack(const std::filesystem::path& input, const std::filesystem::path& dest,
                    const UnpackLimits& limits = {});

// The Main-Class of a jar's META-INF/MANIFEST.MF (continuation lines joined); an error says
// what is missing: "the jar has no Main-Class in META-INF/MANIFEST.MF".
Parsed<std::string> jar_main_class(const std::filesystem::path& jar);

}  // namespace arena::handin
