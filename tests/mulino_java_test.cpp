// Round trips through a real JVM: tests/java declares the course's State and Action classes (same
// names, fields and serialVersionUID) and a small program that reads what our writer wrote and
// writes objects our reader must read. Skipped, saying so, only when no JDK is installed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "protocol/java_serial/reader.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_messages.hpp"
#include "support/files.hpp"
#include "support/java_tools.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace arena::mulino {
namespace {

using testing::read_bytes;

namespace fs = std::filesystem;
using testing::Process;
using testing::TempDir;

void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

// One line per message, in the Java program's format.
std::string describe(const WireState& s) {
  std::string board;
  for (Checker c : s.board) board += c == Checker::White ? 'W' : c == Checker::Black ? 'B' : 'O';
  return fmt::format("State {} {} {} {} {} {}\n", phase_constant(s.phase), s.white_checkers,
                     s.black_checkers, s.white_on_board, s.black_on_board, board);
}

std::string describe(const WireAction& a) {
  auto text = [](const std::optional<std::string>& s) { return s ? *s : std::string("null"); };
  if (a.kind == ActionKind::Phase1)
    return fmt::format("{} {} {}\n", action_class_name(a.kind), text(a.from), text(a.remove));
  return fmt::format("{} {} {} {}\n", action_class_name(a.kind), text(a.from), text(a.to),
                     text(a.remove));
}

// A message of either kind, as the reader decodes it.
std::string describe(const jser::Reader& r, const jser::Value& v) {
  const std::string& cls = r.class_desc(r.object(v, "message").cls).name;
  if (cls.ends_with(".State")) return describe(decode_state(r, v));
  return describe(decode_action(r, v));
}

std::string describe_stream(const std::string& bytes) {
  jser::Reader reader(reader_limits());
  reader.feed(bytes);
  std::string out;
  while (auto v = reader.next()) out += describe(reader, *v);
  EXPECT_EQ(reader.buffered(), 0u);
  return out;
}

WireState sample_state(Phase phase, int wc, int bc, std::vector<std::string> white,
                       std::vector<std::string> black) {
  WireState s;
  s.phase = phase;
  s.white_checkers = wc;
  s.black_checkers = bc;
  for (const auto& p : white) s.board[*point_index(p)] = Checker::White;
  for (const auto& p : black) s.board[*point_index(p)] = Checker::Black;
  s.white_on_board = static_cast<int>(white.size());
  s.black_on_board = static_cast<int>(black.size());
  return s;
}

// States of every phase and actions of every class, some with a removal and some without.
struct Message {
  std::optional<WireState> state;
  std::optional<WireAction> action;
};
std::vector<Message> sample_messages() {
  return {
      {WireState{}, {}},
      {{}, WireAction{ActionKind::Phase1, "a1", {}, {}}},
      {sample_state(Phase::First, 8, 9, {"a1"}, {}), {}},
      {{}, WireAction{ActionKind::Phase1, "g1", {}, "b2"}},
      {sample_state(Phase::Second, 0, 0, {"a1", "d1", "g1", "a4"}, {"b2", "d2", "f2", "g7"}), {}},
      {{}, WireAction{ActionKind::Phase2, "a1", "a7", {}}},
      {{}, WireAction{ActionKind::Phase2, "d1", "d2", "g7"}},
      {sample_state(Phase::Final, 0, 0, {"a1", "d1", "g1"}, {"b2", "d2", "f2", "c3"}), {}},
      {{}, WireAction{ActionKind::Final, "a1", "e4", "c3"}},
      {sample_state(Phase::Final, 0, 0, {"e4", "d1", "g1"}, {"b2", "d2", "f2"}), {}},
  };
}

class MulinoJava : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    java_ = testing::find_java_tool("java");
    dir_ = new TempDir;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    const std::string missing = testing::java_programs_missing(ARENA_TEST_JAVA_CLASSES);
    if (!missing.empty()) GTEST_SKIP() << missing;
    ASSERT_TRUE(fs::exists(fs::path(ARENA_TEST_JAVA_CLASSES) / "MulinoWireCheck.class"));
  }

  // Runs the Java program; its stdout.
  static std::string run_java(const std::vector<std::string>& args) {
    std::vector<std::string> cmd = {java_, "-cp", ARENA_TEST_JAVA_CLASSES, "MulinoWireCheck"};
    cmd.insert(cmd.end(), args.begin(), args.end());
    Process java(cmd);
    const auto rc = java.wait(std::chrono::minutes(2));
    EXPECT_EQ(rc, 0) << java.err();
    return java.out();
  }
  static fs::path file(const std::string& name) { return dir_->path() / name; }

  static inline std::string java_;
  static inline TempDir* dir_ = nullptr;
};

std::string write_messages(bool reset_each) {
  jser::Writer w;
  for (const Message& m : sample_messages()) {
    if (reset_each) w.reset();
    if (m.state) encode_state(w, *m.state);
    if (m.action) encode_action(w, *m.action);
  }
  return w.take();
}

std::string expected_lines() {
  std::string out;
  for (const Message& m : sample_messages())
    out += m.state ? describe(*m.state) : describe(*m.action);
  return out;
}

TEST_F(MulinoJava, JavaReadsWhatOurWriterWrote) {
  spit(file("ours.bin"), write_messages(false));
  EXPECT_EQ(run_java({"read", file("ours.bin").string()}), expected_lines());
}

TEST_F(MulinoJava, JavaReadsOurWriterWithAResetBeforeEachObject) {
  spit(file("ours-reset.bin"), write_messages(true));
  EXPECT_EQ(run_java({"read", file("ours-reset.bin").string()}), expected_lines());
}

TEST_F(MulinoJava, OurReaderReadsWhatJavaWrote) {
  const std::string printed = run_java({"write", file("java.bin").string()});
  const std::string bytes = read_bytes(file("java.bin"));
  ASSERT_FALSE(bytes.empty());
  EXPECT_NE(bytes.find('\x79'), std::string::npos);  // the script resets the stream once
  EXPECT_EQ(describe_stream(bytes), printed);
  EXPECT_EQ(printed.substr(0, 6), "State ");
}

TEST_F(MulinoJava, JavaEchoOfOurMessagesDecodesToTheSameValues) {
  spit(file("echo-in.bin"), write_messages(false));
  const std::string printed =
      run_java({"echo", file("echo-in.bin").string(), file("echo-out.bin").string()});
  EXPECT_EQ(printed, expected_lines());
  // Not byte for byte: a HashMap Java deserialized has 64 buckets, so it writes another order.
  EXPECT_EQ(describe_stream(read_bytes(file("echo-out.bin"))), expected_lines());
}

}  // namespace
}  // namespace arena::mulino
