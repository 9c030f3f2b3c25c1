// The byte streams recorded between the original Mulino Java server and two original text clients
// (shared/fixtures/mulino-wire, copied to tests/data/mulino-wire): every message decodes, prints as
// the Java programs printed it, and our writer re-encodes the same messages byte for byte.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/java_serial/reader.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_messages.hpp"
#include "support/files.hpp"

namespace arena::mulino {
namespace {

std::string read_data(const std::string& name) {
  return testing::read_test_data("mulino-wire/" + name);
}

// Every top-level object of a whole stream, fed in pieces of `chunk` bytes.
template <class Decode>
auto decode_all(const std::string& bytes, std::size_t chunk, Decode decode) {
  jser::Reader reader(reader_limits());
  std::vector<decltype(decode(reader, jser::Value{}))> out;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    reader.feed(std::string_view(bytes).substr(at, chunk));
    while (auto v = reader.next()) out.push_back(decode(reader, *v));
  }
  EXPECT_EQ(reader.buffered(), 0u) << "bytes left over at the end of the stream";
  return out;
}

std::vector<WireState> states_of(const std::string& bytes, std::size_t chunk = 1 << 20) {
  return decode_all(bytes, chunk,
                    [](const jser::Reader& r, const jser::Value& v) { return decode_state(r, v); });
}

std::vector<WireAction> actions_of(const std::string& bytes, std::size_t chunk = 1 << 20) {
  return decode_all(bytes, chunk, [](const jser::Reader& r, const jser::Value& v) {
    return decode_action(r, v);
  });
}

// The State.toString() blocks a Java program printed, in order.
std::vector<std::string> printed_states(const std::string& stdout_text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = stdout_text.find("7 O--------O--------O\n", at)) != std::string::npos) {
    const std::string last = "Black Checkers On Board: ";
    const std::size_t end = stdout_text.find('\n', stdout_text.find(last, at));
    out.push_back(stdout_text.substr(at, end + 1 - at));
    at = end;
  }
  return out;
}

std::vector<std::string> moves_of(const std::vector<WireAction>& actions) {
  std::vector<std::string> out;
  for (const auto& a : actions) {
    const auto m = move_from_action(a);
    EXPECT_TRUE(m) << m.error;
    out.push_back(m ? *m.value : "?");
  }
  return out;
}

TEST(MulinoWireFixture, ServerStreamsDecodeToWhatTheClientsPrinted) {
  for (const std::string side : {"white", "black"}) {
    SCOPED_TRACE(side);
    const auto states = states_of(read_data("server-to-" + side + "-client.bin"));
    const auto printed = printed_states(read_data(side + "-client-stdout.txt"));
    ASSERT_EQ(states.size(), 7u);  // the start, then six plies (the seventh move was refused)
    ASSERT_EQ(printed.size(), states.size());
    for (std::size_t i = 0; i < states.size(); ++i)
      EXPECT_EQ(course_text(states[i]), printed[i]) << i;
  }
}

TEST(MulinoWireFixture, ServerPrintedTheSameStates) {
  const auto states = states_of(read_data("server-to-white-client.bin"));
  const auto printed = printed_states(read_data("engine-stdout.txt"));
  ASSERT_EQ(printed.size(), states.size());
  for (std::size_t i = 0; i < states.size(); ++i)
    EXPECT_EQ(course_text(states[i]), printed[i]) << i;
}

TEST(MulinoWireFixture, DecodedStatesHaveTheRecordedFields) {
  const auto states = states_of(read_data("server-to-white-client.bin"));
  const WireState start;
  EXPECT_EQ(states[0], start);
  // After g1b2: White a1 d1 g1, Black b4 (b2 removed), 6 and 7 in hand.
  const WireState& s = states[5];
  EXPECT_EQ(s.phase, Phase::First);
  EXPECT_EQ(s.white_checkers, 6);
  EXPECT_EQ(s.black_checkers, 7);
  EXPECT_EQ(s.white_on_board, 3);
  EXPECT_EQ(s.black_on_board, 1);
  for (std::size_t i = 0; i < kPoints.size(); ++i) {
    const std::string_view p = kPoints[i];
    const Checker want = (p == "a1" || p == "d1" || p == "g1") ? Checker::White
                         : p == "b4"                           ? Checker::Black
                                                               : Checker::Empty;
    EXPECT_EQ(s.board[i], want) << p;
  }
}

TEST(MulinoWireFixture, ClientStreamsDecodeToTheMovesTheServerPrinted) {
  // engine-stdout.txt: "Player W move n1: a1", ... White's fourth action (b4) was refused.
  EXPECT_EQ(moves_of(actions_of(read_data("white-client-to-server.bin"))),
            (std::vector<std::string>{"a1", "d1", "g1b2", "b4"}));
  EXPECT_EQ(moves_of(actions_of(read_data("black-client-to-server.bin"))),
            (std::vector<std::string>{"b2", "b4", "b6"}));
  const auto actions = actions_of(read_data("white-client-to-server.bin"));
  EXPECT_EQ(actions[0].kind, ActionKind::Phase1);
  EXPECT_EQ(actions[0].remove, std::nullopt);  // null on the wire
  EXPECT_EQ(actions[2].remove, "b2");
}

TEST(MulinoWireFixture, ByteByByteFeedingGivesTheSameMessages) {
  const std::string bytes = read_data("server-to-black-client.bin");
  EXPECT_EQ(states_of(bytes, 1), states_of(bytes));
  EXPECT_EQ(states_of(bytes, 7), states_of(bytes));
  const std::string actions = read_data("white-client-to-server.bin");
  EXPECT_EQ(actions_of(actions, 1), actions_of(actions));
}

TEST(MulinoWireFixture, WriterReproducesTheServerStreamExactly) {
  const std::string recorded = read_data("server-to-white-client.bin");
  jser::Writer w;
  for (const auto& s : states_of(recorded)) encode_state(w, s);
  EXPECT_EQ(w.take(), recorded);
}

TEST(MulinoWireFixture, WriterReproducesTheClientStreamsExactly) {
  for (const std::string side : {"white", "black"}) {
    const std::string recorded = read_data(side + "-client-to-server.bin");
    jser::Writer w;
    for (const auto& a : actions_of(recorded)) encode_action(w, a);
    EXPECT_EQ(w.take(), recorded) << side;
  }
}

}  // namespace
}  // namespace arena::mulino
