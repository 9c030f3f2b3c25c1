// `arena handin check` against the hostile archives of issue 30, end to end with the real
// binary (the unpacking library meets each in handin_unpack_test.cpp): an absolute path, a link
// to /etc or /etc/passwd and then a file through it, a zip bomb, 100,000 tiny entries, device
// files. Each is rejected (exit 1) with its reason in the verdict line, nothing is written
// outside the check's folder, and the check's agent/ folder is gone again.
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/handin_cli.hpp"
#include "support/hostile_archives.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArchiveFormat;
using testing::TempDir;

// A unique name for what an archive tries to write outside.
std::string tag() {
  return "arena-hostile-" + std::to_string(::getpid());
}

struct HostileArchive {
  const char* name;  // the test's name
  const char* file;  // the archive's
  std::function<void(const fs::path&)> write;
  std::string reason;             // the verdict line: "rejected: " + reason
  std::vector<fs::path> targets;  // places outside that it aims at
};

std::vector<HostileArchive> cases() {
  const std::string t = tag();
  return {
      {"AbsolutePathInATar",
       "abs.tar",
       [t](const fs::path& p) {
         testing::write_absolute_path_archive(p, ArchiveFormat::Tar, "/tmp/" + t);
       },
       "absolute path: '/tmp/" + t + "'",
       {"/tmp/" + t}},
      {"AbsolutePathInAZip",
       "abs.zip",
       [t](const fs::path& p) {
         testing::write_absolute_path_archive(p, ArchiveFormat::Zip, "/tmp/" + t);
       },
       "absolute path: '/tmp/" + t + "'",
       {"/tmp/" + t}},
      {"LinkToEtcThenAFileThroughIt",
       "etc.tar",
       [t](const fs::path& p) { testing::write_link_to_etc_then_file(p, t); },
       "symbolic link to an absolute path ('/etc'): 'etc'",
       {"/etc/" + t}},
      {"LinkToEtcPasswdThenAFileOfItsName",
       "passwd.tar",
       [](const fs::path& p) { testing::write_passwd_link_then_file(p); },
       "symbolic link to an absolute path ('/etc/passwd'): 'passwd'",
       {}},
      {"ZipBomb",
       "bomb.zip",
       [](const fs::path& p) { testing::write_zip_bomb(p, 1ull << 30); },
       "file is larger than the limit of 64 MB per file: 'alice/zeros.bin'",
       {}},
      {"HundredThousandTinyEntries",
       "many.tar.gz",
       [](const fs::path& p) { testing::write_many_entries(p, 100'000); },
       "more than the limit of 10000 entries (files, folders and links): 'f/9999'",
       {}},
      {"CharacterDevice",
       "dev.tar",
       [](const fs::path& p) { testing::write_special_file(p, "null", AE_IFCHR); },
       "device file: 'null'",
       {}},
      {"BlockDevice",
       "blk.tar",
       [](const fs::path& p) { testing::write_special_file(p, "sda", AE_IFBLK); },
       "device file: 'sda'",
       {}},
  };
}

void PrintTo(const HostileArchive& c, std::ostream* os) {
  *os << c.name;
}

class HandinHostileArchive : public ::testing::TestWithParam<HostileArchive> {};

// The names in a folder.
std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

TEST_P(HandinHostileArchive, IsRejectedAndNothingIsWritten) {
  const HostileArchive& c = GetParam();
  TempDir tmp;
  const fs::path in = tmp.path() / "in", out = tmp.path() / "out",
                 sentinel = tmp.path() / "sentinel";
  fs::create_directories(in);
  fs::create_directories(sentinel / "keep");
  c.write(in / c.file);
  const std::set<std::string> etc_before = names_in("/etc");
  const std::string passwd_before = testing::read_bytes("/etc/passwd");
  // Bounded even if the limits were missing: arena and all it runs may write no file over
  // 128 MB, and run 60 s of CPU.
  const auto v =
      testing::run_handin_check({"soccer", (in / c.file).string(), "--out", out.string()}, 60s,
                                {"/usr/bin/prlimit", "--fsize=134217728", "--cpu=60", "--"});
  std::printf("%s: %.1f s: %s\n", c.name, v.seconds, v.last_line.c_str());
  EXPECT_EQ(v.exit, 1) << v.out << v.err;
  EXPECT_EQ(v.last_line, "rejected: " + c.reason) << v.out << v.err;
  EXPECT_LT(v.seconds, 30);
  // The check's folder holds its verdict, and no agent/ any more.
  EXPECT_FALSE(fs::exists(out / "agent"));
  EXPECT_EQ(names_in(out), (std::set<std::string>{"verdict.json"}));
  EXPECT_EQ(nlohmann::json::parse(testing::read_bytes(out / "verdict.json"))["verdict"],
            "rejected");
  // Nothing beside it, in the sentinel folder, in /etc or where the archive aimed.
  EXPECT_EQ(names_in(tmp.path()), (std::set<std::string>{"in", "out", "sentinel"}));
  EXPECT_EQ(names_in(sentinel), (std::set<std::string>{"keep"}));
  EXPECT_TRUE(fs::is_empty(sentinel / "keep"));
  EXPECT_EQ(names_in("/etc"), etc_before);
  EXPECT_EQ(testing::read_bytes("/etc/passwd"), passwd_before);
  for (const auto& p : c.targets) {
    EXPECT_FALSE(fs::exists(fs::symlink_status(p))) << p;
    std::error_code ignored;
    fs::remove(p, ignored);
  }
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
    EXPECT_EQ(e.path().filename().string().find(tag()), std::string::npos) << e.path();
}

INSTANTIATE_TEST_SUITE_P(HandinHostileArchives, HandinHostileArchive, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<HostileArchive>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace arena
