#pragma once
// The Morris course's messages (Bologna 2016/17, "Mulino"): the Java State the server sends after
// every ply and the three Action classes a client answers with, as plain values; their Java
// serialization form; the course's State.toString() text; actions <-> arena move text.
// No sockets and no rules here (see mulino_position.hpp for the arena position).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/parse_result.hpp"
#include "protocol/java_serial/reader.hpp"
#include "protocol/java_serial/writer.hpp"

namespace arena::mulino {

// The 24 points in the order the course's State lists them (its `positions` array).
inline constexpr std::array<std::string_view, 24> kPoints = {
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3",
    "d5", "d6", "d7", "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7"};
// The index of a point name in kPoints, if it is one.
std::optional<int> point_index(std::string_view name);

enum class Checker : std::uint8_t { Empty, White, Black };
enum class Phase : std::uint8_t { First, Second, Final };

std::string_view checker_constant(Checker c);  // "EMPTY", "WHITE", "BLACK"
std::string_view phase_constant(Phase p);      // "FIRST", "SECOND", "FINAL"

// it.unibo.ai.didattica.mulino.domain.State. "Checkers" are the pieces still in hand.
struct WireState {
  std::array<Checker, 24> board{};  // by kPoints index
  int white_checkers = 9, black_checkers = 9;
  int white_on_board = 0, black_on_board = 0;
  Phase phase = Phase::First;
  bool operator==(const WireState&) const = default;
};

enum class ActionKind : std::uint8_t { Phase1, Phase2, Final };

// actions.Phase1Action {putPosition, removeOpponentChecker}, actions.Phase2Action and
// actions.PhaseFinalAction {from, removeOpponentChecker, to}. Strings as received: the server
// checks them. For Phase1 `from` holds putPosition and `to` is unused.
struct WireAction {
  ActionKind kind = ActionKind::Phase1;
  std::optional<std::string> from;
  std::optional<std::string> to;
  std::optional<std::string> remove;
  bool operator==(const WireAction&) const = default;
};

// The action class that belongs to a phase, and its short Java name for messages.
ActionKind action_kind_for(Phase p);
std::string_view action_class_name(ActionKind k);

// Arena move text ("a1", "a1g7", "a1a4", "a1a4g7") <-> action. The text is not checked against
// any position; point names are.
Parsed<WireAction> action_from_move(std::string_view move, Phase phase);
Parsed<std::string> move_from_action(const WireAction& a);

// Limits and the class allow-list for reading either direction of a course connection.
jser::ReaderLimits reader_limits();

// Decoding a top-level object; throws jser::StreamError with a clear message when the object is
// not a well-formed State / Action.
WireState decode_state(const jser::Reader& r, const jser::Value& v);
WireAction decode_action(const jser::Reader& r, const jser::Value& v);

// Writing one message, in the layout the course's Java classes produce.
void encode_state(jser::Writer& w, const WireState& s);
void encode_action(jser::Writer& w, const WireAction& a);

// The course's State.toString(): the board, then the phase and the four counts (ends with "\n").
std::string course_text(const WireState& s);

}  // namespace arena::mulino
