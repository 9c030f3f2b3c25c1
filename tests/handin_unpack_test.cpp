#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include "handin/unpack.hpp"
#include "support/hostile_archives.hpp"
#include "support/temp_dir.hpp"
#include "support/test_archive.hpp"

namespace arena::handin {
namespace {

namespace fs = std::filesystem;
using testing::ArchiveFormat;
using testing::TempDir;
using testing::TestArchive;

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// A hand-in's world: the archive in in/, unpacked into out/dest, beside a sentinel folder that
// nothing may touch.
class Unpack : public ::testing::Test {
 protected:
  TempDir tmp;
  fs::path in = tmp.path() / "in";
  fs::path dest = tmp.path() / "out" / "dest";
  fs::path sentinel = tmp.path() / "sentinel";
  std::string tag = "arena-handin-" + std::to_string(::getpid());

  void SetUp() override {
    fs::create_directories(in);
    fs::create_directories(sentinel);
    write_file(sentinel / "keep.txt", "keep");
  }

  // Refused for `reason` (a part of it) on `entry`, with nothing left of dest and nothing
  // written beside it, in the sentinel folder or in /tmp.
  void expect_refused(const UnpackResult& r, const std::string& reason, const std::string& entry) {
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.reason.find(reason), std::string::npos) << r.message();
    EXPECT_EQ(r.entry, entry) << r.message();
    EXPECT_FALSE(fs::exists(dest));
    expect_nothing_outside();
  }
  void expect_nothing_outside() {
    EXPECT_TRUE(fs::is_empty(tmp.path() / "out") || !fs::exists(dest));
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(sentinel)) names.push_back(e.path().filename());
    EXPECT_EQ(names, std::vector<std::string>{"keep.txt"});
    EXPECT_EQ(read_bytes(sentinel / "keep.txt"), "keep");
    for (const auto& e : fs::directory_iterator(tmp.path()))
      EXPECT_TRUE(e.path().filename() == "in" || e.path().filename() == "out" ||
                  e.path().filename() == "sentinel")
          << e.path();
    for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
      EXPECT_EQ(e.path().filename().string().find(tag), std::string::npos) << e.path();
  }
};

void add_sample(TestArchive& a) {
  a.folder("alice/");
  a.file("alice/Makefile", "build:\n\tcc -o bot bot.c\nclean:\n\trm -f bot\n");
  a.file("alice/bot.c", "int main(void) { return 0; }\n");
  a.file("alice/run.sh", "#!/bin/sh\nexec ./bot \"$@\"\n", 0755);
  a.file("alice/data/book.txt", "e4\n");
}

void expect_sample(const UnpackResult& r, const fs::path& dest) {
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_EQ(r.root, dest / "alice");
  EXPECT_EQ(r.files, 4u);
  EXPECT_EQ(read_bytes(dest / "alice/bot.c"), "int main(void) { return 0; }\n");
  EXPECT_EQ(read_bytes(dest / "alice/data/book.txt"), "e4\n");
  const auto run = fs::status(dest / "alice/run.sh").permissions();
  EXPECT_EQ(run & fs::perms::all, static_cast<fs::perms>(0755));
  EXPECT_EQ(fs::status(dest / "alice/bot.c").permissions() & fs::perms::all,
            static_cast<fs::perms>(0644));
  // The student's times are kept: make decides from them what to rebuild.
  struct stat st {};
  ASSERT_EQ(::stat((dest / "alice/bot.c").c_str(), &st), 0);
  EXPECT_EQ(st.st_mtime, 1365976500);
}

TEST_F(Unpack, GoodArchivesOfEveryKind) {
  const struct {
    ArchiveFormat format;
    const char* name;
    InputKind kind;
    const char* compression;
  } cases[] = {
      {ArchiveFormat::Zip, "alice.zip", InputKind::Zip, ""},
      {ArchiveFormat::Tar, "alice.tar", InputKind::Tar, ""},
      {ArchiveFormat::TarGz, "alice.tar.gz", InputKind::Tar, "gzip"},
      {ArchiveFormat::TarGz, "alice.tgz", InputKind::Tar, "gzip"},
      {ArchiveFormat::TarXz, "alice.tar.xz", InputKind::Tar, "xz"},
      // Told by the content, not the name.
      {ArchiveFormat::TarGz, "alice-really-a-tgz.zip", InputKind::Tar, "gzip"},
      {ArchiveFormat::Zip, "alice-really-a-zip.tar", InputKind::Zip, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    {
      TestArchive a(in / c.name, c.format);
      add_sample(a);
      a.close();
    }
    const auto r = unpack(in / c.name, dest);
    expect_sample(r, dest);
    EXPECT_EQ(r.kind, c.kind);
    EXPECT_EQ(r.compression, c.compression);
    fs::remove_all(dest);
  }
}

TEST_F(Unpack, ContentAtTheTopIsItsOwnRoot) {
  {
    TestArchive a(in / "h.zip", ArchiveFormat::Zip);
    a.file("Makefile", "build:\n");
    a.file("bot.c", "");
    a.close();
  }
  const auto r = unpack(in / "h.zip", dest);
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_EQ(r.root, dest);
}

TEST_F(Unpack, MacArchiversFolderIsNotTheContent) {
  {
    TestArchive a(in / "h.zip", ArchiveFormat::Zip);
    a.file("alice/Makefile", "build:\n");
    a.file("__MACOSX/alice/._Makefile", "x");
    a.close();
  }
  const auto r = unpack(in / "h.zip", dest);
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_EQ(r.root, dest / "alice");
}

TEST_F(Unpack, SpecialModeBitsAreDropped) {
  {
    TestArchive a(in / "h.tar", ArchiveFormat::Tar);
    a.file("setuid", "x", 04755);
    a.file("setgid", "x", 02711);
    a.file("readonly", "x", 0400);
    a.close();
  }
  const auto r = unpack(in / "h.tar", dest);
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_EQ(fs::status(dest / "setuid").permissions(), static_cast<fs::perms>(0755));
  EXPECT_EQ(fs::status(dest / "setgid").permissions(), static_cast<fs::perms>(0755));
  EXPECT_EQ(fs::status(dest / "readonly").permissions(), static_cast<fs::perms>(0644));
}

TEST_F(Unpack, ANestedArchiveIsJustAFile) {
  {
    TestArchive inner(in / "inner.tar.gz", ArchiveFormat::TarGz);
    inner.file("../../escape", "x");
    inner.close();
  }
  {
    TestArchive a(in / "h.zip", ArchiveFormat::Zip);
    a.file("inner.tar.gz", read_bytes(in / "inner.tar.gz"));
    a.close();
  }
  const auto r = unpack(in / "h.zip", dest);
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_EQ(read_bytes(dest / "inner.tar.gz"), read_bytes(in / "inner.tar.gz"));
  EXPECT_EQ(r.files, 1u);
}

TEST_F(Unpack, InternalRelativeLinksAreKept) {
  {
    TestArchive a(in / "h.tar", ArchiveFormat::Tar);
    a.file("alice/src/Bot.java", "class Bot {}");
    a.symlink("alice/current", "src");
    a.symlink("alice/src/self", "../src/Bot.java");
    a.close();
  }
  const auto r = unpack(in / "h.tar", dest);
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_EQ(r.links, 2u);
  EXPECT_TRUE(fs::is_symlink(dest / "alice/current"));
  EXPECT_EQ(fs::read_symlink(dest / "alice/current"), "src");
  EXPECT_EQ(read_bytes(dest / "alice/current/Bot.java"), "class Bot {}");
}

TEST_F(Unpack, AFolderIsCopiedByTheSameRules) {
  const fs::path from = tmp.path() / "in" / "bob";
  write_file(from / "Makefile", "build:\n");
  write_file(from / "src" / "Bot.java", "class Bot {}");
  write_file(from / "bot", "#!/bin/sh\n");
  fs::permissions(from / "bot", static_cast<fs::perms>(04755));
  fs::create_symlink("src", from / "sources");
  const auto r = unpack(from, dest);
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_EQ(r.kind, InputKind::Folder);
  EXPECT_EQ(r.files, 3u);
  EXPECT_EQ(r.links, 1u);
  EXPECT_EQ(r.root, dest);
  EXPECT_EQ(read_bytes(dest / "src/Bot.java"), "class Bot {}");
  EXPECT_EQ(fs::status(dest / "bot").permissions(), static_cast<fs::perms>(0755));
  EXPECT_EQ(fs::read_symlink(dest / "sources"), "src");
}

TEST_F(Unpack, AFoldersOutsideLinksAndSpecialFilesAreRefused) {
  const fs::path from = in / "bob";
  write_file(from / "Makefile", "build:\n");
  fs::create_symlink("/etc/passwd", from / "passwd");
  expect_refused(unpack(from, dest), "symbolic link to an absolute path", "passwd");
  fs::remove(from / "passwd");
  fs::create_symlink("../../sentinel", from / "up");
  expect_refused(unpack(from, dest), "points outside the folder", "up");
  fs::remove(from / "up");
  ASSERT_EQ(::mkfifo((from / "pipe").c_str(), 0644), 0);
  expect_refused(unpack(from, dest), "fifo", "pipe");
}

// A jar is kept whole: the agent is `java -jar X.jar`.
void make_jar(const fs::path& path, const std::string& manifest) {
  TestArchive a(path, ArchiveFormat::Zip);
  a.folder("META-INF/");
  if (!manifest.empty()) a.file("META-INF/MANIFEST.MF", manifest);
  a.file("it/unibo/ai/didattica/mulino/client/Agent.class", "\xca\xfe\xba\xbe");
  a.close();
}

TEST_F(Unpack, AJarIsKeptWholeAndItsMainClassRead) {
  // Lines are wrapped at 72 bytes; a continuation starts with one space.
  make_jar(in / "agent.jar",
           "Manifest-Version: 1.0\r\nCreated-By: 17.0.9 (Debian)\r\n"
           "Main-Class: it.unibo.ai.didattica.mulino.client.MulinoClientWithAVeryLon\r\n"
           " gName\r\n\r\nName: other\r\nMain-Class: Wrong\r\n");
  const auto r = unpack(in / "agent.jar", dest);
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_EQ(r.kind, InputKind::Jar);
  EXPECT_EQ(r.root, dest);
  EXPECT_EQ(r.files, 2u);  // its entries
  EXPECT_EQ(read_bytes(dest / "agent.jar"), read_bytes(in / "agent.jar"));
  const auto main = jar_main_class(dest / "agent.jar");
  ASSERT_TRUE(main) << main.error;
  EXPECT_EQ(*main.value, "it.unibo.ai.didattica.mulino.client.MulinoClientWithAVeryLongName");
}

TEST_F(Unpack, JarsWithoutAMainClass) {
  make_jar(in / "lib.jar", "Manifest-Version: 1.0\nCreated-By: 1.8.0\n\n");
  EXPECT_EQ(jar_main_class(in / "lib.jar").error,
            "the jar has no Main-Class in META-INF/MANIFEST.MF");
  make_jar(in / "bare.jar", "");
  EXPECT_EQ(jar_main_class(in / "bare.jar").error, "the jar has no META-INF/MANIFEST.MF");
  write_file(in / "text.jar", "not a zip at all\n");
  EXPECT_EQ(jar_main_class(in / "text.jar").error, "not a jar (zip) file");
  // Unpacking a jar without Main-Class still keeps it: the convention decides what it means.
  EXPECT_TRUE(unpack(in / "lib.jar", dest).ok);
}

TEST_F(Unpack, AJarThatIsNotAZipIsRefused) {
  {
    TestArchive a(in / "fake.jar", ArchiveFormat::Tar);
    a.file("Main.class", "x");
    a.close();
  }
  expect_refused(unpack(in / "fake.jar", dest), "a .jar that is not a zip", "");
}

TEST_F(Unpack, AJarsEntriesAreCheckedLikeAZipsEntries) {
  {
    TestArchive a(in / "evil.jar", ArchiveFormat::Zip);
    a.file("../../" + tag, "x");
    a.close();
  }
  expect_refused(unpack(in / "evil.jar", dest), "'..'", "../../" + tag);
}

TEST_F(Unpack, TheDestinationMustBeNew) {
  {
    TestArchive a(in / "h.zip", ArchiveFormat::Zip);
    a.file("x", "x");
    a.close();
  }
  fs::create_directories(dest);
  write_file(dest / "mine", "mine");
  const auto r = unpack(in / "h.zip", dest);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.reason, "the folder to unpack into already exists");
  EXPECT_EQ(read_bytes(dest / "mine"), "mine");  // left as it was
}

// --- hostile archives ---

TEST_F(Unpack, ZipSlip) {
  const std::string name = "../../sentinel/" + tag;
  {
    TestArchive a(in / "slip.zip", ArchiveFormat::Zip);
    a.file("alice/Makefile", "build:\n");
    a.file(name, "pwned");
    a.close();
  }
  expect_refused(unpack(in / "slip.zip", dest), "path leaves the folder ('..')", name);
  {
    TestArchive a(in / "slip2.tar", ArchiveFormat::Tar);
    a.file("alice/../../" + tag, "pwned");
    a.close();
  }
  expect_refused(unpack(in / "slip2.tar", dest), "'..'", "alice/../../" + tag);
}

TEST_F(Unpack, AbsolutePath) {
  const std::string name = "/tmp/" + tag;
  for (auto format : {ArchiveFormat::Tar, ArchiveFormat::Zip}) {
    testing::write_absolute_path_archive(in / "abs", format, name);
    expect_refused(unpack(in / "abs", dest), "absolute path", name);
  }
}

TEST_F(Unpack, LinkToEtcThenAFileThroughIt) {
  testing::write_link_to_etc_then_file(in / "etc.tar", tag);
  expect_refused(unpack(in / "etc.tar", dest), "symbolic link to an absolute path ('/etc')", "etc");
  EXPECT_FALSE(fs::exists("/etc/" + tag));
  testing::write_passwd_link_then_file(in / "passwd.tar");
  expect_refused(unpack(in / "passwd.tar", dest), "absolute path", "passwd");
}

TEST_F(Unpack, LinkOutsideThenAFileThroughIt) {
  {
    TestArchive a(in / "out.tar", ArchiveFormat::Tar);
    a.symlink("alice/up", "../../../sentinel");
    a.file("alice/up/" + tag, "pwned");
    a.close();
  }
  expect_refused(unpack(in / "out.tar", dest), "points outside the folder", "alice/up");
}

TEST_F(Unpack, NothingIsWrittenThroughAnInsideLink) {
  {
    TestArchive a(in / "through.zip", ArchiveFormat::Zip);
    a.folder("sub/");
    a.symlink("inner", "sub");
    a.file("inner/x", "x");
    a.close();
  }
  expect_refused(unpack(in / "through.zip", dest), "path goes through the symbolic link 'inner'",
                 "inner/x");
}

TEST_F(Unpack, LinksThatLeaveThroughOtherLinks) {
  {
    // Each reads as inside, but d/l is the top, so e = the top's parent.
    TestArchive a(in / "chain.tar", ArchiveFormat::Tar);
    a.folder("d/");
    a.symlink("d/l", "..");
    a.symlink("e", "d/l/..");
    a.close();
  }
  expect_refused(unpack(in / "chain.tar", dest), "points outside the folder", "e");
}

TEST_F(Unpack, AFileAndALinkOfTheSameName) {
  {
    TestArchive a(in / "twice.tar", ArchiveFormat::Tar);
    a.file("Makefile", "build:\n");
    a.symlink("Makefile", "bot.c");
    a.close();
  }
  expect_refused(unpack(in / "twice.tar", dest), "appears twice", "Makefile");
  {
    TestArchive a(in / "twice2.tar", ArchiveFormat::Tar);
    a.file("bot", "1");
    a.file("bot", "2");
    a.close();
  }
  expect_refused(unpack(in / "twice2.tar", dest), "appears twice", "bot");
}

TEST_F(Unpack, HardLinks) {
  {
    TestArchive a(in / "hard.tar", ArchiveFormat::Tar);
    a.hardlink("passwd", "/etc/passwd");
    a.close();
  }
  expect_refused(unpack(in / "hard.tar", dest), "hard link", "passwd");
  {
    TestArchive a(in / "hard2.tar", ArchiveFormat::Tar);
    a.file("a", "x");
    a.hardlink("b", "a");
    a.close();
  }
  expect_refused(unpack(in / "hard2.tar", dest), "hard link", "b");
}

TEST_F(Unpack, DevicesAndFifos) {
  testing::write_special_file(in / "dev.tar", "null", AE_IFCHR);
  expect_refused(unpack(in / "dev.tar", dest), "device file", "null");
  testing::write_special_file(in / "blk.tar", "sda", AE_IFBLK);
  expect_refused(unpack(in / "blk.tar", dest), "device file", "sda");
  testing::write_special_file(in / "fifo.tar", "pipe", AE_IFIFO);
  expect_refused(unpack(in / "fifo.tar", dest), "fifo", "pipe");
}

TEST_F(Unpack, DeepPathsAndLongNames) {
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "d/";
  deep += "f";
  {
    TestArchive a(in / "deep.tar", ArchiveFormat::Tar);
    a.file(deep, "x");
    a.close();
  }
  expect_refused(unpack(in / "deep.tar", dest), "deeper than the limit of 32 folders", deep);
  const std::string long_name(300, 'n');
  {
    TestArchive a(in / "long.tar", ArchiveFormat::Tar);
    a.file(long_name, "x");
    a.close();
  }
  expect_refused(unpack(in / "long.tar", dest),
                 "a name in the path is longer than the limit of 255",
                 std::string(120, 'n') + "...");
  std::string long_path;
  for (int i = 0; i < 12; ++i) long_path += std::string(100, 'p') + "/";
  long_path += "f";
  {
    TestArchive a(in / "longpath.zip", ArchiveFormat::Zip);
    a.file(long_path, "x");
    a.close();
  }
  expect_refused(unpack(in / "longpath.zip", dest), "path is longer than the limit of 1024 bytes",
                 long_path.substr(0, 120) + "...");
}

TEST_F(Unpack, NamesAreReportedPrintable) {
  {
    TestArchive a(in / "esc.tar", ArchiveFormat::Tar);
    a.file("../\x1b[2J\x07x", "x");
    a.close();
  }
  expect_refused(unpack(in / "esc.tar", dest), "'..'", "../?[2J?x");
}

TEST_F(Unpack, WhatIsNotAnArchive) {
  write_file(in / "notes.txt", "just some text, not an archive\n");
  expect_refused(unpack(in / "notes.txt", dest), "not a zip, jar or tar archive", "");
  write_file(in / "empty.zip", "");
  expect_refused(unpack(in / "empty.zip", dest), "the file is empty", "");
  expect_refused(unpack(in / "missing.zip", dest), "cannot open the hand-in", "");
  fs::create_directories(in / "nothing");
  expect_refused(unpack(in / "nothing", dest), "the folder is empty", "");
}

TEST_F(Unpack, TruncatedArchives) {
  for (auto format : {ArchiveFormat::Zip, ArchiveFormat::TarGz, ArchiveFormat::Tar}) {
    {
      TestArchive a(in / "whole", format);
      std::string text;
      for (int i = 0; i < 4000; ++i) text += std::to_string(i * 7919) + " ";
      a.file("alice/a.txt", text);
      a.file("alice/b.txt", text + "b");
      a.close();
    }
    const std::string bytes = read_bytes(in / "whole");
    write_file(in / "cut", bytes.substr(0, bytes.size() / 2));
    const auto r = unpack(in / "cut", dest);
    EXPECT_FALSE(r.ok);
    EXPECT_FALSE(r.reason.empty());
    EXPECT_FALSE(fs::exists(dest));
    std::cout << "truncated: " << r.message() << "\n";
  }
}

TEST_F(Unpack, SmallLimitsAreEachEnforced) {
  {
    TestArchive a(in / "sizes.tar.gz", ArchiveFormat::TarGz);
    a.zeros("a", 3 << 20);
    a.zeros("b", 3 << 20);
    a.zeros("c", 3 << 20);
    a.close();
  }
  UnpackLimits total;
  total.max_total_bytes = 8 << 20;
  total.max_ratio = 0;
  expect_refused(unpack(in / "sizes.tar.gz", dest, total),
                 "the hand-in unpacks to more than the limit of 8 MB", "c");
  UnpackLimits file;
  file.max_file_bytes = 2 << 20;
  file.max_ratio = 0;
  expect_refused(unpack(in / "sizes.tar.gz", dest, file),
                 "file is larger than the limit of 2 MB per file", "a");
  UnpackLimits ratio;
  ratio.ratio_after_bytes = 1 << 20;
  ratio.max_ratio = 100;
  expect_refused(unpack(in / "sizes.tar.gz", dest, ratio), "over 100 times its size", "a");
  UnpackLimits entries;
  entries.max_entries = 2;
  expect_refused(unpack(in / "sizes.tar.gz", dest, entries), "more than the limit of 2 entries",
                 "c");
}

// Runs `fn` in a child with at most `fsize` bytes per file written, 60 s of CPU and `seconds` of
// wall time, so that a missing protection costs a failed test and not the disk. The child's
// answer comes back through a pipe.
std::string run_bounded(const std::function<std::string()>& fn, rlim_t fsize, unsigned seconds) {
  int fds[2];
  if (::pipe(fds) != 0) return "pipe failed";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    const rlimit fs_limit{fsize, fsize}, cpu{60, 60};
    ::setrlimit(RLIMIT_FSIZE, &fs_limit);
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::alarm(seconds);
    const std::string out = fn();
    (void)!::write(fds[1], out.data(), out.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return "child killed by signal " + std::to_string(WTERMSIG(status));
  return out;
}

std::string timed_unpack(const fs::path& input, const fs::path& dest) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = unpack(input, dest);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  return r.message() + " | " + std::to_string(ms) + " ms";
}

TEST_F(Unpack, ZipBombIsStoppedAtTheLimit) {
  // 2 GB of zeros, deflated to about 2 MB.
  const auto start = std::chrono::steady_clock::now();
  testing::write_zip_bomb(in / "bomb.zip", 2ull << 30);
  std::cout << "bomb: " << fs::file_size(in / "bomb.zip") << " bytes, made in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - start)
                   .count()
            << " ms\n";
  const std::string out =
      run_bounded([&] { return timed_unpack(in / "bomb.zip", dest); }, 300ull << 20, 60);
  std::cout << "bomb: " << out << "\n";
  EXPECT_NE(out.find("refused: file is larger than the limit of 64 MB per file: "
                     "'alice/zeros.bin'"),
            std::string::npos)
      << out;
  EXPECT_FALSE(fs::exists(dest));
  expect_nothing_outside();
}

TEST_F(Unpack, ManySmallFilesBombIsStoppedAtTheLimit) {
  testing::write_many_entries(in / "many.tar.gz", 100'000);
  const std::string out =
      run_bounded([&] { return timed_unpack(in / "many.tar.gz", dest); }, 64ull << 20, 120);
  std::cout << "100,000 entries: " << out << "\n";
  EXPECT_NE(out.find("refused: more than the limit of 10000 entries (files, folders and links): "
                     "'f/9999'"),
            std::string::npos)
      << out;
  EXPECT_FALSE(fs::exists(dest));
}

TEST_F(Unpack, TenThousandEntriesAreFine) {
  {
    TestArchive a(in / "big.tar.gz", ArchiveFormat::TarGz);
    for (int i = 0; i < 9'999; ++i) a.file("src/" + std::to_string(i) + ".c", "int x;\n");
    a.close();
  }
  const std::string out = timed_unpack(in / "big.tar.gz", dest);
  std::cout << "10,000 entries: " << out << "\n";
  EXPECT_EQ(out.rfind("unpacked (tar+gzip): 9999 files, 1 folders", 0), 0u) << out;
}

}  // namespace
}  // namespace arena::handin
