#pragma once
// Reads what java.io.ObjectOutputStream writes: the stream header, then one top-level object at a
// time, with one handle table for the whole stream (back-references may span messages; TC_RESET
// clears the table). Bytes arrive in any pieces; an object is returned once it is complete.
//
// Everything is bounded: a hostile stream (huge lengths, deep nesting, reference loops, classes
// not allowed) gets a StreamError with a clear message, never a crash, hang or unbounded
// allocation. No sockets here.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/java_serial/model.hpp"

namespace arena::jser {

// The stream is malformed, exceeds a limit, or holds something the caller did not expect. The
// reader that threw is unusable afterwards (as Java's ObjectInputStream is).
struct StreamError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ReaderLimits {
  std::size_t max_message_bytes = 1 << 20;  // one top-level object with its new descriptors
  int max_depth = 64;                       // nesting of objects, arrays and superclasses
  std::size_t max_handles = 1 << 20;        // entries in the handle table
  std::size_t max_stored_bytes = 64 << 20;  // what the handle table may hold, approximately
  // Whether a class may appear (checked when its descriptor arrives); empty: any class.
  std::function<bool(std::string_view class_name)> accept_class;
};

class Reader {
 public:
  explicit Reader(ReaderLimits limits = {});

  // Adds bytes received from the peer.
  void feed(std::string_view bytes);
  // The next complete top-level object, or nullopt while more bytes are needed. TC_RESET
  // between objects is handled here. Throws StreamError.
  std::optional<Value> next();

  // Bytes received but not yet part of a returned object.
  std::size_t buffered() const { return buffer_.size() - pos_; }
  std::size_t handle_count() const { return table_.size(); }
  const ReaderLimits& limits() const { return limits_; }

  // Looking at what was read. Each throws StreamError naming `what` when the value is not of the
  // expected kind, so callers get a clear message for a stream of the wrong shape.
  const Entity& entity(Handle h) const;
  const Object& object(const Value& v, std::string_view what) const;
  const ClassDesc& class_desc(Handle h) const;
  const std::string& string(const Value& v, std::string_view what) const;
  std::optional<std::string> string_or_null(const Value& v, std::string_view what) const;
  const EnumConstant& enum_constant(const Value& v, std::string_view what) const;
  const Array& array(const Value& v, std::string_view what) const;
  // The class name of whatever `v` refers to ("null" for null, the type code for primitives).
  std::string describe(const Value& v) const;

 private:
  struct NeedMore {};  // thrown inside a parse when the buffer ends first

  ReaderLimits limits_;
  std::string buffer_;
  std::size_t pos_ = 0;     // first unconsumed byte
  std::size_t cursor_ = 0;  // parse position inside the current message
  std::size_t message_start_ = 0;
  std::size_t wanted_ = 0;  // bytes (from pos_) the last incomplete parse needed: no retry before
  bool header_read_ = false;
  bool failed_ = false;
  std::vector<Entity> table_;
  std::size_t stored_bytes_ = 0;

  // Primitive reads at the cursor.
  void need(std::size_t n);
  std::uint8_t u8();
  std::uint8_t peek();
  std::uint16_t u16();
  std::int32_t i32();
  std::int64_t i64();
  std::string bytes(std::size_t n);
  std::string utf();       // u2 length + bytes
  std::string long_utf();  // u8 length + bytes

  [[noreturn]] void fail(const std::string& why);
  void charge(std::size_t bytes);
  Handle new_handle(Entity e);
  Handle handle_from_wire(std::int32_t wire);

  Value read_content(int depth);
  std::optional<Handle> read_class_desc(int depth);
  Handle read_new_class_desc(bool proxy, int depth);
  std::string read_type_string(int depth);
  Value read_new_object(int depth);
  Value read_new_array(int depth);
  Value read_new_enum(int depth);
  Value read_new_string(bool long_form);
  Value read_primitive(char type);
  std::vector<Annotation> read_annotations(int depth);
  std::vector<Handle> hierarchy(Handle cls);
};

}  // namespace arena::jser
