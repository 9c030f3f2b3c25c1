// `arena submit` and `arena course status` against a real course server: a student's hand-in and
// where they stand from the command line, and the errors they get for a wrong token or address.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/course_fixture.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::CourseServer;
using testing::run_arena;

std::string token_of(const CourseServer& s, const std::string& login) {
  return s.as(login).begin()->second.substr(7);
}

TEST(CourseCli, SubmitWaitsForTheVerdictAndStatusShowsIt) {
  CourseServer server;
  const fs::path zip = server.tmp() / "alice.zip";
  std::ofstream(zip, std::ios::binary) << testing::soccer_zip(server.tmp());
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
  int code = -1;
  std::string out =
      run_arena({"submit", url, zip.string(), "--token", token_of(server, "alice")}, &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("uploaded alice.zip as hand-in #1"), std::string::npos) << out;
  EXPECT_NE(out.find("hand-in #1: accepted"), std::string::npos) << out;

  out = run_arena(
      {"submit", url + "/", zip.string(), "--token", token_of(server, "bob"), "--no-wait"}, &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("as hand-in #2"), std::string::npos) << out;
  EXPECT_EQ(out.find("accepted"), std::string::npos) << out;

  out = run_arena({"course", "status", url, "--token", token_of(server, "alice")}, &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("Alice A (alice) in Test course"), std::string::npos) << out;
  EXPECT_NE(out.find("#1"), std::string::npos) << out;
  EXPECT_NE(out.find(">   1. Alice A"), std::string::npos) << out;
}

TEST(CourseCli, ClearErrorsForAWrongTokenAddressOrFile) {
  CourseServer server;
  const fs::path zip = server.tmp() / "a.zip";
  std::ofstream(zip, std::ios::binary) << testing::soccer_zip(server.tmp());
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
  int code = 0;
  std::string out = run_arena({"submit", url, zip.string(), "--token", "wrong"}, &code);
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("the token is not valid (401)"), std::string::npos) << out;
  out = run_arena({"course", "token", server.dir().string(), "Bob", "--revoke"}, &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("ended 1 token(s) of bob"), std::string::npos) << out;
  EXPECT_EQ(server.get("bob", "/api/me")->status, 401);
  out = run_arena({"submit", "ftp://x", zip.string(), "--token", "t"}, &code);
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("is not a server address"), std::string::npos) << out;
  out = run_arena({"submit", "http://127.0.0.1:1", zip.string(), "--token", "t"}, &code);
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("cannot reach the server"), std::string::npos) << out;
  const fs::path text = server.tmp() / "notes.txt";
  std::ofstream(text) << "hello";
  out = run_arena({"submit", url, text.string(), "--token", token_of(server, "alice")}, &code);
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("not an archive"), std::string::npos) << out;
}

}  // namespace
}  // namespace arena
