#pragma once
// The hostile archives of issue 30, written with TestArchive: each aims at a place outside the
// folder it is unpacked into, or at the machine's disk and time. Shared by the library's tests
// (handin_unpack_test.cpp) and the end-to-end ones of `arena handin check`
// (handin_hostile_archive_test.cpp). `tag` makes the names unique to the test that writes them.
#include <cstdint>
#include <filesystem>
#include <string>

#include "test_archive.hpp"

namespace arena::testing {

// One entry with an absolute name, e.g. "/tmp/TAG".
inline void write_absolute_path_archive(const std::filesystem::path& path, ArchiveFormat format,
                                        const std::string& name) {
  TestArchive a(path, format);
  a.file(name, "pwned");
  a.close();
}

// A link "etc" to /etc, then a file written through it: "etc/TAG".
inline void write_link_to_etc_then_file(const std::filesystem::path& path, const std::string& tag) {
  TestArchive a(path, ArchiveFormat::Tar);
  a.symlink("etc", "/etc");
  a.file("etc/" + tag, "pwned");
  a.close();
}

// A link "passwd" to /etc/passwd, then a file of that name, which would overwrite it.
inline void write_passwd_link_then_file(const std::filesystem::path& path) {
  TestArchive a(path, ArchiveFormat::Tar);
  a.symlink("passwd", "/etc/passwd");
  a.file("passwd", "root::0:0::/:/bin/sh\n");
  a.close();
}

// A zip bomb: a hand-in folder "alice" with a Makefile and `bytes` of deflated zeros.
inline void write_zip_bomb(const std::filesystem::path& path, std::uint64_t bytes) {
  TestArchive a(path, ArchiveFormat::Zip);
  a.file("alice/Makefile", "build:\n");
  a.zeros("alice/zeros.bin", bytes);
  a.close();
}

// `count` empty files f/0, f/1, ... in a tar.gz.
inline void write_many_entries(const std::filesystem::path& path, int count) {
  TestArchive a(path, ArchiveFormat::TarGz);
  for (int i = 0; i < count; ++i) a.file("f/" + std::to_string(i), "");
  a.close();
}

// One special file, e.g. ("null", AE_IFCHR), ("sda", AE_IFBLK), ("pipe", AE_IFIFO).
inline void write_special_file(const std::filesystem::path& path, const std::string& name,
                               unsigned type) {
  TestArchive a(path, ArchiveFormat::Tar);
  a.special(name, type);
  a.close();
}

}  // namespace arena::testing
