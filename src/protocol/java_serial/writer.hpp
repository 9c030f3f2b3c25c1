#pragma once
// Writes a Java serialization stream as java.io.ObjectOutputStream does: the header, then objects
// whose class descriptors, strings and enum constants are written once and referred back to
// afterwards (also across messages), unless reset() starts afresh. The caller writes each
// object's fields in the descriptor's order; no sockets here.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/java_serial/model.hpp"

namespace arena::jser {

// A class to describe on the wire. Specs are compared by name: one name, one descriptor.
struct ClassSpec {
  std::string name;
  std::int64_t suid = 0;
  std::uint8_t flags = 0;
  std::vector<FieldDesc> fields;  // in wire order (Java: primitives, then objects, each by name)
  const ClassSpec* super = nullptr;
};

class Writer {
 public:
  Writer();  // the stream header is the first thing taken

  // The bytes written since the last take().
  std::string take() { return std::exchange(out_, {}); }

  // TC_RESET: the reader forgets every handle, and so does the writer.
  void reset();

  void null();
  // An equal string written before is sent as a back-reference.
  void string(std::string_view text);
  void enum_constant(const ClassSpec& cls, std::string_view name);
  // TC_OBJECT with its descriptor; then the caller writes the field values of each class,
  // topmost superclass first, with the annotations of classes that have SC_WRITE_METHOD.
  void begin_object(const ClassSpec& cls);
  // TC_ARRAY with its descriptor and length; then the caller writes `length` elements.
  void begin_array(const ClassSpec& cls, std::int32_t length);

  void int32(std::int32_t v);
  void float32(float v);
  // Block data inside an annotation (as DataOutput writes within writeObject).
  void block(std::string_view bytes);
  void end_block();  // TC_ENDBLOCKDATA: ends a class's annotations

 private:
  std::string out_;
  std::uint32_t next_handle_ = 0;
  std::map<std::string, std::uint32_t, std::less<>> classes_, strings_;
  std::map<std::pair<std::string, std::string>, std::uint32_t> enums_;

  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(std::uint16_t v);
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void utf(std::string_view s);
  void reference(std::uint32_t handle);
  std::uint32_t assign_handle() { return next_handle_++; }
  void class_desc(const ClassSpec* cls);
};

// What java.util.HashMap holds after putting `count` keys into a new HashMap(): its table size and
// resize threshold, as HashMap.writeObject writes them.
struct JavaHashMapShape {
  std::int32_t capacity = 16;
  std::int32_t threshold = 12;
};
JavaHashMapShape java_hash_map_shape(std::size_t count);
// String.hashCode() of an ASCII string.
std::int32_t java_string_hash(std::string_view s);
// The order a java.util.HashMap<String, ...> iterates (and so serializes) keys that were put in
// the given order, for a map of the given capacity.
std::vector<std::size_t> java_hash_map_order(const std::vector<std::string>& keys_in_put_order,
                                             std::int32_t capacity);

}  // namespace arena::jser
