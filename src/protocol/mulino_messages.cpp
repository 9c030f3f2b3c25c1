#include "protocol/mulino_messages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/text.hpp"
#include "protocol/java_serial/constants.hpp"

namespace arena::mulino {
namespace {

using jser::ClassSpec;
using jser::FieldDesc;
using jser::StreamError;

const std::string kStateName = "it.unibo.ai.didattica.mulino.domain.State";
const std::string kCheckerName = "it.unibo.ai.didattica.mulino.domain.State$Checker";
const std::string kPhaseName = "it.unibo.ai.didattica.mulino.domain.State$Phase";
const std::string kActionName = "it.unibo.ai.didattica.mulino.actions.Action";
const std::string kPhase1Name = "it.unibo.ai.didattica.mulino.actions.Phase1Action";
const std::string kPhase2Name = "it.unibo.ai.didattica.mulino.actions.Phase2Action";
const std::string kFinalName = "it.unibo.ai.didattica.mulino.actions.PhaseFinalAction";
constexpr std::string_view kStringType = "Ljava/lang/String;";

// The descriptors the course's classes (and the JDK's) produce, byte for byte.
const ClassSpec kEnum{"java.lang.Enum", 0, jser::SC_SERIALIZABLE | jser::SC_ENUM, {}, nullptr};
const ClassSpec kChecker{kCheckerName, 0, jser::SC_SERIALIZABLE | jser::SC_ENUM, {}, &kEnum};
const ClassSpec kPhase{kPhaseName, 0, jser::SC_SERIALIZABLE | jser::SC_ENUM, {}, &kEnum};
const ClassSpec kHashMap{"java.util.HashMap",
                         0x0507DAC1C31660D1LL,
                         jser::SC_SERIALIZABLE | jser::SC_WRITE_METHOD,
                         {{'F', "loadFactor", ""}, {'I', "threshold", ""}},
                         nullptr};
const ClassSpec kStringArray{"[Ljava.lang.String;",
                             static_cast<std::int64_t>(0xADD256E7E91D7B47ULL),
                             jser::SC_SERIALIZABLE,
                             {},
                             nullptr};
const ClassSpec kState{kStateName,
                       1,
                       jser::SC_SERIALIZABLE,
                       {{'I', "blackCheckers", ""},
                        {'I', "blackCheckersOnBoard", ""},
                        {'I', "whiteCheckers", ""},
                        {'I', "whiteCheckersOnBoard", ""},
                        {'L', "board", "Ljava/util/HashMap;"},
                        {'L', "currentPhase", "Lit/unibo/ai/didattica/mulino/domain/State$Phase;"},
                        {'[', "positions", "[Ljava/lang/String;"}},
                       nullptr};
const ClassSpec kAction{kActionName, 1, jser::SC_SERIALIZABLE, {}, nullptr};
const ClassSpec kPhase1{kPhase1Name,
                        1,
                        jser::SC_SERIALIZABLE,
                        {{'L', "putPosition", std::string(kStringType)},
                         {'L', "removeOpponentChecker", std::string(kStringType)}},
                        &kAction};
const ClassSpec kPhase2{kPhase2Name,
                        1,
                        jser::SC_SERIALIZABLE,
                        {{'L', "from", std::string(kStringType)},
                         {'L', "removeOpponentChecker", std::string(kStringType)},
                         {'L', "to", std::string(kStringType)}},
                        &kAction};
const ClassSpec kFinal{kFinalName, 1, jser::SC_SERIALIZABLE, kPhase2.fields, &kAction};

const ClassSpec& action_spec(ActionKind k) {
  switch (k) {
    case ActionKind::Phase1:
      return kPhase1;
    case ActionKind::Phase2:
      return kPhase2;
    case ActionKind::Final:
      break;
  }
  return kFinal;
}

// The fields one class of an object wrote, looked up by name (any order a writer chose).
class Fields {
 public:
  Fields(const jser::Reader& r, const jser::Object& o, const std::string& cls,
         std::string_view what)
      : what_(what) {
    for (const auto& data : o.classes) {
      const jser::ClassDesc& d = r.class_desc(data.cls);
      if (d.name != cls) continue;
      desc_ = &d;
      data_ = &data;
    }
    if (!desc_) throw StreamError(fmt::format("{}: the object has no {} part", what, cls));
  }
  const jser::Value& operator[](std::string_view name) const {
    for (std::size_t i = 0; i < desc_->fields.size() && i < data_->fields.size(); ++i)
      if (desc_->fields[i].name == name) return data_->fields[i];
    throw StreamError(fmt::format("{}: the object has no field {}", what_, name));
  }
  int count(std::string_view name) const {
    const jser::Value& v = (*this)[name];
    if (v.kind != jser::Value::Kind::Int || v.type != 'I')
      throw StreamError(fmt::format("{}: field {} is not an int", what_, name));
    if (v.i < 0 || v.i > 9)
      throw StreamError(fmt::format("{}: field {} is {}, not 0 to 9", what_, name, v.i));
    return static_cast<int>(v.i);
  }
  const jser::ClassData& data() const { return *data_; }

 private:
  std::string_view what_;
  const jser::ClassDesc* desc_ = nullptr;
  const jser::ClassData* data_ = nullptr;
};

std::string_view enum_class_of(const jser::Reader& r, const jser::EnumConstant& c) {
  return r.class_desc(c.cls).name;
}

Checker checker_from(const jser::Reader& r, const jser::Value& v, std::string_view what) {
  const auto& c = r.enum_constant(v, what);
  if (enum_class_of(r, c) == kCheckerName) {
    if (c.name == "EMPTY") return Checker::Empty;
    if (c.name == "WHITE") return Checker::White;
    if (c.name == "BLACK") return Checker::Black;
  }
  throw StreamError(fmt::format("{}: {} is not a State.Checker", what, printable(c.name)));
}

Phase phase_from(const jser::Reader& r, const jser::Value& v) {
  const auto& c = r.enum_constant(v, "State.currentPhase");
  if (enum_class_of(r, c) == kPhaseName) {
    if (c.name == "FIRST") return Phase::First;
    if (c.name == "SECOND") return Phase::Second;
    if (c.name == "FINAL") return Phase::Final;
  }
  throw StreamError(fmt::format("State.currentPhase: {} is not a State.Phase", printable(c.name)));
}

std::int32_t be32(std::string_view b) {
  std::uint32_t v = 0;
  for (char c : b) v = (v << 8) | static_cast<unsigned char>(c);
  return static_cast<std::int32_t>(v);
}

// HashMap.writeObject: after its two fields, a block with the table size and the entry count,
// then key and value objects, alternating.
void read_board(const jser::Reader& r, const jser::Value& v, WireState& s) {
  const auto& map = r.object(v, "State.board");
  const Fields f(r, map, "java.util.HashMap", "State.board");
  const auto& ann = f.data().annotations;
  if (ann.empty() || !ann[0].block || ann[0].block->size() != 8)
    throw StreamError("State.board: the HashMap data does not start with its size");
  const std::int32_t size = be32(std::string_view(*ann[0].block).substr(4));
  if (size != 24) throw StreamError(fmt::format("State.board: {} entries, not 24", size));
  if (ann.size() != 1 + 2 * static_cast<std::size_t>(size))
    throw StreamError("State.board: the HashMap data does not hold its entries");
  std::array<bool, 24> seen{};
  for (std::size_t i = 0; i < 24; ++i) {
    const auto& key = ann[1 + 2 * i];
    const auto& value = ann[2 + 2 * i];
    if (key.block || value.block) throw StreamError("State.board: block data among the entries");
    const std::string& name = r.string(key.object, "State.board key");
    const auto p = point_index(name);
    if (!p) throw StreamError(fmt::format("State.board: '{}' is not a point", printable(name)));
    if (seen[*p]) throw StreamError(fmt::format("State.board: point {} twice", name));
    seen[*p] = true;
    s.board[*p] = checker_from(r, value.object, "State.board value");
  }
}

void read_positions(const jser::Reader& r, const jser::Value& v) {
  const auto& arr = r.array(v, "State.positions");
  if (arr.items.size() != 24)
    throw StreamError(fmt::format("State.positions: {} names, not 24", arr.items.size()));
  for (const auto& item : arr.items) {
    const std::string& name = r.string(item, "State.positions element");
    if (!point_index(name))
      throw StreamError(fmt::format("State.positions: '{}' is not a point", printable(name)));
  }
}

void write_optional(jser::Writer& w, const std::optional<std::string>& s) {
  if (s)
    w.string(*s);
  else
    w.null();
}

}  // namespace

std::optional<int> point_index(std::string_view name) {
  const auto it = std::find(kPoints.begin(), kPoints.end(), name);
  if (it == kPoints.end()) return std::nullopt;
  return static_cast<int>(it - kPoints.begin());
}

std::string_view checker_constant(Checker c) {
  switch (c) {
    case Checker::White:
      return "WHITE";
    case Checker::Black:
      return "BLACK";
    case Checker::Empty:
      break;
  }
  return "EMPTY";
}

std::string_view phase_constant(Phase p) {
  switch (p) {
    case Phase::Second:
      return "SECOND";
    case Phase::Final:
      return "FINAL";
    case Phase::First:
      break;
  }
  return "FIRST";
}

ActionKind action_kind_for(Phase p) {
  switch (p) {
    case Phase::Second:
      return ActionKind::Phase2;
    case Phase::Final:
      return ActionKind::Final;
    case Phase::First:
      break;
  }
  return ActionKind::Phase1;
}

std::string_view action_class_name(ActionKind k) {
  switch (k) {
    case ActionKind::Phase2:
      return "Phase2Action";
    case ActionKind::Final:
      return "PhaseFinalAction";
    case ActionKind::Phase1:
      break;
  }
  return "Phase1Action";
}

Parsed<WireAction> action_from_move(std::string_view move, Phase phase) {
  auto point = [&](std::size_t at) -> std::optional<std::string> {
    const std::string name(move.substr(at, 2));
    if (!point_index(name)) return std::nullopt;
    return name;
  };
  WireAction a;
  a.kind = action_kind_for(phase);
  const std::size_t points = a.kind == ActionKind::Phase1 ? 1 : 2;
  if (move.size() != 2 * points && move.size() != 2 * points + 2)
    return Parsed<WireAction>::fail(
        fmt::format("'{}' is not a {} move", printable(move), action_class_name(a.kind)));
  a.from = point(0);
  if (points == 2) a.to = point(2);
  if (move.size() == 2 * points + 2) a.remove = point(2 * points);
  if (!a.from || (points == 2 && !a.to) || (move.size() == 2 * points + 2 && !a.remove))
    return Parsed<WireAction>::fail(
        fmt::format("'{}' names a point that does not exist", printable(move)));
  return Parsed<WireAction>::ok(std::move(a));
}

Parsed<std::string> move_from_action(const WireAction& a) {
  auto check = [](const std::optional<std::string>& s,
                  std::string_view field) -> Parsed<std::string> {
    if (!s) return Parsed<std::string>::fail(fmt::format("{} is null", field));
    if (!point_index(*s))
      return Parsed<std::string>::fail(fmt::format("{} '{}' is not a point", field, printable(*s)));
    return Parsed<std::string>::ok(*s);
  };
  const bool placing = a.kind == ActionKind::Phase1;
  auto from = check(a.from, placing ? "putPosition" : "from");
  if (!from) return from;
  std::string move = *from.value;
  if (!placing) {
    auto to = check(a.to, "to");
    if (!to) return to;
    move += *to.value;
  }
  if (a.remove) {
    auto remove = check(a.remove, "removeOpponentChecker");
    if (!remove) return remove;
    move += *remove.value;
  }
  return Parsed<std::string>::ok(std::move(move));
}

jser::ReaderLimits reader_limits() {
  jser::ReaderLimits limits;
  // A whole State with every descriptor is 3.5 KB; an incomplete message is parsed again as
  // bytes arrive, so this also bounds the work a peer sending one byte at a time can cause.
  limits.max_message_bytes = 16 * 1024;
  limits.max_depth = 16;  // a State nests three levels deep
  limits.max_handles = 1 << 20;
  limits.max_stored_bytes = 256 << 20;
  limits.accept_class = [](std::string_view name) {
    static const std::array<std::string_view, 10> known = {
        kStateName,  kCheckerName, kPhaseName,       kActionName,         kPhase1Name,
        kPhase2Name, kFinalName,   "java.lang.Enum", "java.util.HashMap", "[Ljava.lang.String;"};
    return std::find(known.begin(), known.end(), name) != known.end();
  };
  return limits;
}

WireState decode_state(const jser::Reader& r, const jser::Value& v) {
  const auto& obj = r.object(v, "the server's message");
  const std::string& cls = r.class_desc(obj.cls).name;
  if (cls != kStateName)
    throw StreamError(fmt::format("the server sent a {}, not a State", printable(cls)));
  const Fields f(r, obj, kStateName, "State");
  WireState s;
  s.black_checkers = f.count("blackCheckers");
  s.black_on_board = f.count("blackCheckersOnBoard");
  s.white_checkers = f.count("whiteCheckers");
  s.white_on_board = f.count("whiteCheckersOnBoard");
  read_board(r, f["board"], s);
  s.phase = phase_from(r, f["currentPhase"]);
  read_positions(r, f["positions"]);
  return s;
}

WireAction decode_action(const jser::Reader& r, const jser::Value& v) {
  const auto& obj = r.object(v, "the client's message");
  const std::string& cls = r.class_desc(obj.cls).name;
  WireAction a;
  if (cls == kPhase1Name) {
    const Fields f(r, obj, cls, "Phase1Action");
    a.kind = ActionKind::Phase1;
    a.from = r.string_or_null(f["putPosition"], "Phase1Action.putPosition");
    a.remove = r.string_or_null(f["removeOpponentChecker"], "Phase1Action.removeOpponentChecker");
    return a;
  }
  if (cls == kPhase2Name || cls == kFinalName) {
    a.kind = cls == kPhase2Name ? ActionKind::Phase2 : ActionKind::Final;
    const std::string_view what = action_class_name(a.kind);
    const Fields f(r, obj, cls, what);
    a.from = r.string_or_null(f["from"], fmt::format("{}.from", what));
    a.to = r.string_or_null(f["to"], fmt::format("{}.to", what));
    a.remove =
        r.string_or_null(f["removeOpponentChecker"], fmt::format("{}.removeOpponentChecker", what));
    return a;
  }
  throw StreamError(fmt::format("the client sent a {}, not an Action", printable(cls)));
}

void encode_state(jser::Writer& w, const WireState& s) {
  w.begin_object(kState);
  w.int32(s.black_checkers);
  w.int32(s.black_on_board);
  w.int32(s.white_checkers);
  w.int32(s.white_on_board);
  // The course's State puts the points into a new HashMap in kPoints order.
  static const std::vector<std::string> keys(kPoints.begin(), kPoints.end());
  const auto shape = jser::java_hash_map_shape(keys.size());
  static const auto order = jser::java_hash_map_order(keys, shape.capacity);
  w.begin_object(kHashMap);
  w.float32(0.75f);
  w.int32(shape.threshold);
  std::string sizes(8, '\0');
  for (int i = 0; i < 4; ++i) {
    sizes[i] = static_cast<char>(static_cast<std::uint32_t>(shape.capacity) >> (24 - 8 * i));
    sizes[4 + i] = static_cast<char>(keys.size() >> (24 - 8 * i));
  }
  w.block(sizes);
  for (const std::size_t i : order) {
    w.string(keys[i]);
    w.enum_constant(kChecker, checker_constant(s.board[i]));
  }
  w.end_block();
  w.enum_constant(kPhase, phase_constant(s.phase));
  w.begin_array(kStringArray, static_cast<std::int32_t>(kPoints.size()));
  for (const auto p : kPoints) w.string(p);
}

void encode_action(jser::Writer& w, const WireAction& a) {
  w.begin_object(action_spec(a.kind));
  // Action has no fields; then the subclass's fields in wire order.
  if (a.kind == ActionKind::Phase1) {
    write_optional(w, a.from);
    write_optional(w, a.remove);
  } else {
    write_optional(w, a.from);
    write_optional(w, a.remove);
    write_optional(w, a.to);
  }
}

std::string course_text(const WireState& s) {
  std::array<std::string, 7> rows = {"1 O--------O--------O", "2 |--O-----O-----O--|",
                                     "3 |--|--O--O--O--|--|", "4 O--O--O     O--O--O",
                                     "5 |--|--O--O--O--|--|", "6 |--O-----O-----O--|",
                                     "7 O--------O--------O"};
  for (std::size_t i = 0; i < kPoints.size(); ++i) {
    const int col = kPoints[i][0] - 'a', row = kPoints[i][1] - '1';
    const char mark = s.board[i] == Checker::White ? 'W' : s.board[i] == Checker::Black ? 'B' : 'O';
    rows[row][2 + 3 * col] = mark;
  }
  std::string out;
  for (int row = 6; row >= 0; --row) out += rows[row] + "\n";
  out += "  a  b  c  d  e  f  g\n";
  const std::string_view phase = s.phase == Phase::First    ? "First"
                                 : s.phase == Phase::Second ? "Second"
                                                            : "Final";
  out += fmt::format(
      "Phase: {};\nWhite Checkers: {};\nBlack Checkers: {};\nWhite Checkers On Board: {};\n"
      "Black Checkers On Board: {};\n",
      phase, s.white_checkers, s.black_checkers, s.white_on_board, s.black_on_board);
  return out;
}

}  // namespace arena::mulino
