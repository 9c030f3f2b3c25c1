// `arena handin batch` end to end: a small cohort (two good Fission agents by arena.json running
// arena's own client, a build that fails, a hostile archive, a name clash, files that are no
// hand-ins) gives the reports and a participants file that `arena tournament` plays to the end;
// a rerun checks nothing, and a changed hand-in is the only one checked again.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/test_archive.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArchiveFormat;
using testing::Process;
using testing::TempDir;
using testing::TestArchive;

struct Outcome {
  int exit = -1;
  std::string out, err;
};

Outcome arena(const std::vector<std::string>& args, std::chrono::seconds timeout = 120s) {
  std::vector<std::string> argv = {ARENA_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  Process p(argv);
  Outcome r;
  r.exit = p.wait(timeout).value_or(-1);
  r.out = p.out();
  r.err = p.err();
  return r;
}

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// arena.json for a Fission agent: arena's own client with this player.
std::string fission_manifest(const std::string& player) {
  return nlohmann::json{{"run", std::string(ARENA_BINARY) + " connect fission {host} {port} " +
                                    "--player " + player +
                                    " --moves-per-player 10 --move-time {move_ms}"}}
      .dump();
}

class HandinBatch : public ::testing::Test {
 protected:
  TempDir tmp;
  fs::path cohort = tmp.path() / "cohort", out = tmp.path() / "batch";

  void SetUp() override {
    fs::create_directories(cohort / "alice");
    std::ofstream(cohort / "alice" / "arena.json") << fission_manifest("random");
    {
      TestArchive a(cohort / "bob.zip", ArchiveFormat::Zip);
      a.folder("bob/");
      a.file("bob/arena.json", fission_manifest("greedy"));
      a.close();
    }
    write_carol(R"({"build": "echo cannot build >&2; exit 3", "run": "./x {host} {port}"})");
    {
      // Hostile twice: a path out of the folder, and markup in the file name.
      TestArchive a(cohort / "dave<b>.zip", ArchiveFormat::Zip);
      a.file("../../escaped", "x");
      a.close();
    }
    for (const char* clash : {"eve.zip", "eve.tar"}) std::ofstream(cohort / clash) << "x";
    std::ofstream(cohort / "notes.txt") << "not a hand-in";
    std::ofstream(cohort / ".hidden.zip") << "x";
  }

  void write_carol(const std::string& manifest) {
    TestArchive a(cohort / "carol.tar.gz", ArchiveFormat::TarGz);
    a.folder("carol/");
    a.file("carol/arena.json", manifest);
    a.close();
  }

  Outcome batch() {
    return arena({"handin", "batch", "fission", cohort.string(), "--out", out.string(),
                  "--move-time", "500", "-j", "2"});
  }

  // Each student's verdict and how often it was checked, from batch.json and report.json.
  std::map<std::string, std::pair<std::string, int>> students() {
    std::map<std::string, std::pair<std::string, int>> m;
    const auto j = nlohmann::json::parse(read(out / "batch.json"));
    for (const auto& s : j["students"])
      m[s["name"]] = {s["verdict"].get<std::string>(), s["checks"].get<int>()};
    return m;
  }
};

TEST_F(HandinBatch, CohortReportsTournamentAndRerun) {
  const Outcome first = batch();
  ASSERT_EQ(first.exit, 0) << first.out << first.err;
  EXPECT_NE(first.err.find("skipped: notes.txt (not a hand-in"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find("skipped: .hidden.zip (hidden)"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find("[4/4] "), std::string::npos) << first.err;
  EXPECT_NE(first.out.find("5 hand-ins: 2 accepted, 2 rejected, 1 error(s); 4 checked"),
            std::string::npos)
      << first.out;

  const auto report = nlohmann::json::parse(read(out / "report.json"));
  std::map<std::string, nlohmann::json> by;
  for (const auto& s : report["students"]) by[s["student"]] = s;
  ASSERT_EQ(by.size(), 5u) << report.dump(2);
  EXPECT_EQ(by["alice"]["verdict"], "accepted") << by["alice"];
  EXPECT_EQ(by["bob"]["verdict"], "accepted") << by["bob"];
  EXPECT_EQ(by["carol"]["verdict"], "rejected");
  EXPECT_EQ(by["carol"]["reason"], "the build failed (exit 3)") << by["carol"];
  EXPECT_EQ(by["dave_b_"]["verdict"], "rejected");
  EXPECT_NE(by["dave_b_"]["reason"].get<std::string>().find("path leaves the folder"),
            std::string::npos)
      << by["dave_b_"];
  EXPECT_EQ(by["eve"]["verdict"], "error");
  EXPECT_NE(by["eve"]["reason"].get<std::string>().find("eve.tar, eve.zip"), std::string::npos);
  EXPECT_FALSE(fs::exists(tmp.path() / "escaped"));

  const std::string csv = read(out / "report.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 6) << csv;
  EXPECT_NE(csv.find("carol,carol.tar.gz,"), std::string::npos) << csv;
  const std::string html = read(out / "report.html");
  EXPECT_NE(html.find("dave&lt;b&gt;.zip"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_NE(html.find("class=\"verdict accepted\""), std::string::npos);
  EXPECT_NE(html.find("href=\"students/carol/build.log\""), std::string::npos);

  // The accepted agents play a tournament from participants.txt as it is.
  const std::string participants = read(out / "participants.txt");
  EXPECT_EQ(by["alice"]["file"], "alice/");
  EXPECT_NE(participants.find("alice: dir=" + by["alice"]["root"].get<std::string>() + " command " +
                              by["alice"]["run"].get<std::string>() + "\n"),
            std::string::npos)
      << participants;
  EXPECT_EQ(by["bob"]["root"], (out / "students/bob/agent/bob").string());
  EXPECT_NE(participants.find("\nbob: dir="), std::string::npos) << participants;
  const Outcome event = arena({"tournament", "fission", "-f", (out / "participants.txt").string(),
                               "--out", (tmp.path() / "event").string(), "--move-time", "500",
                               "--moves-per-player", "10", "-q"});
  ASSERT_EQ(event.exit, 0) << event.out << event.err;
  const auto results = nlohmann::json::parse(read(tmp.path() / "event" / "results.json"));
  EXPECT_EQ(results["complete"], true) << results.dump(2);
  EXPECT_EQ(results["games"].size(), 2u) << results.dump(2);
  for (const auto& st : results["standings"]) EXPECT_EQ(st["fault_losses"], 0) << results.dump(2);

  // Nothing changed: nothing is checked again.
  const Outcome second = batch();
  ASSERT_EQ(second.exit, 0) << second.err;
  EXPECT_NE(second.err.find("0 to check, 4 unchanged"), std::string::npos) << second.err;
  for (const auto& [name, s] : students()) EXPECT_EQ(s.second, 1) << name;

  // Carol fixes her hand-in, Dave's is withdrawn: only Carol is checked, Dave leaves the report.
  write_carol(fission_manifest("random"));
  fs::remove(cohort / "dave<b>.zip");
  const Outcome third = batch();
  ASSERT_EQ(third.exit, 0) << third.err;
  EXPECT_NE(third.err.find("[1/1] carol accepted"), std::string::npos) << third.err;
  const auto s = students();
  EXPECT_EQ(s.at("carol"), std::make_pair(std::string("accepted"), 2));
  EXPECT_EQ(s.at("alice").second, 1);
  EXPECT_EQ(s.at("bob").second, 1);
  EXPECT_EQ(s.count("dave_b_"), 0u);
  EXPECT_FALSE(fs::exists(out / "students" / "dave_b_"));
  EXPECT_EQ(read(out / "report.json").find("dave"), std::string::npos);
}

TEST_F(HandinBatch, OtherOptionsRedoEveryone) {
  fs::remove_all(cohort);
  fs::create_directories(cohort);
  write_carol(R"({"build": "exit 3", "run": "./x {host} {port}"})");
  ASSERT_EQ(batch().exit, 0);
  const Outcome again = arena(
      {"handin", "batch", "fission", cohort.string(), "--out", out.string(), "--move-time", "400"});
  ASSERT_EQ(again.exit, 0) << again.err;
  EXPECT_NE(again.err.find("[1/1] carol rejected"), std::string::npos) << again.err;
  EXPECT_EQ(students().at("carol").second, 2);
}

TEST_F(HandinBatch, BadUsageExitsTwo) {
  EXPECT_EQ(
      arena({"handin", "batch", "fission", (tmp.path() / "none").string(), "--out", out.string()})
          .exit,
      2);
  EXPECT_EQ(arena({"handin", "batch", "fission", cohort.string()}).exit, 2);  // no --out
}

}  // namespace
}  // namespace arena
