#include "protocol/java_serial/writer.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "protocol/java_serial/constants.hpp"

namespace arena::jser {

Writer::Writer() {
  u16(kStreamMagic);
  u16(kStreamVersion);
}

void Writer::reset() {
  u8(TC_RESET);
  next_handle_ = 0;
  classes_.clear();
  strings_.clear();
  enums_.clear();
}

void Writer::u16(std::uint16_t v) {
  u8(static_cast<std::uint8_t>(v >> 8));
  u8(static_cast<std::uint8_t>(v));
}

void Writer::u32(std::uint32_t v) {
  u16(static_cast<std::uint16_t>(v >> 16));
  u16(static_cast<std::uint16_t>(v));
}

void Writer::u64(std::uint64_t v) {
  u32(static_cast<std::uint32_t>(v >> 32));
  u32(static_cast<std::uint32_t>(v));
}

void Writer::utf(std::string_view s) {
  if (s.size() > 0xFFFF) throw std::length_error("a class or field name longer than 65535 bytes");
  u16(static_cast<std::uint16_t>(s.size()));
  out_.append(s);
}

void Writer::reference(std::uint32_t handle) {
  u8(TC_REFERENCE);
  u32(kBaseHandle + handle);
}

void Writer::null() {
  u8(TC_NULL);
}

void Writer::string(std::string_view text) {
  if (auto it = strings_.find(text); it != strings_.end()) return reference(it->second);
  if (text.size() <= 0xFFFF) {
    u8(TC_STRING);
    u16(static_cast<std::uint16_t>(text.size()));
  } else {
    u8(TC_LONGSTRING);
    u64(text.size());
  }
  out_.append(text);
  strings_.emplace(std::string(text), assign_handle());
}

void Writer::class_desc(const ClassSpec* cls) {
  if (!cls) return null();
  if (auto it = classes_.find(cls->name); it != classes_.end()) return reference(it->second);
  u8(TC_CLASSDESC);
  utf(cls->name);
  u64(static_cast<std::uint64_t>(cls->suid));
  classes_.emplace(cls->name, assign_handle());
  u8(cls->flags);
  u16(static_cast<std::uint16_t>(cls->fields.size()));
  for (const FieldDesc& f : cls->fields) {
    u8(static_cast<std::uint8_t>(f.type));
    utf(f.name);
    if (f.type == 'L' || f.type == '[') string(f.type_name);
  }
  u8(TC_ENDBLOCKDATA);  // no class annotations
  class_desc(cls->super);
}

void Writer::enum_constant(const ClassSpec& cls, std::string_view name) {
  const auto key = std::make_pair(cls.name, std::string(name));
  if (auto it = enums_.find(key); it != enums_.end()) return reference(it->second);
  u8(TC_ENUM);
  class_desc(&cls);
  enums_.emplace(key, assign_handle());
  string(name);
}

void Writer::begin_object(const ClassSpec& cls) {
  u8(TC_OBJECT);
  class_desc(&cls);
  assign_handle();
}

void Writer::begin_array(const ClassSpec& cls, std::int32_t length) {
  u8(TC_ARRAY);
  class_desc(&cls);
  assign_handle();
  u32(static_cast<std::uint32_t>(length));
}

void Writer::int32(std::int32_t v) {
  u32(static_cast<std::uint32_t>(v));
}
void Writer::float32(float v) {
  u32(std::bit_cast<std::uint32_t>(v));
}

void Writer::block(std::string_view bytes) {
  if (bytes.size() <= 0xFF) {
    u8(TC_BLOCKDATA);
    u8(static_cast<std::uint8_t>(bytes.size()));
  } else {
    u8(TC_BLOCKDATALONG);
    u32(static_cast<std::uint32_t>(bytes.size()));
  }
  out_.append(bytes);
}

void Writer::end_block() {
  u8(TC_ENDBLOCKDATA);
}

// ---- java.util.HashMap's layout

JavaHashMapShape java_hash_map_shape(std::size_t count) {
  JavaHashMapShape shape;  // new HashMap(): 16 buckets, load factor 0.75
  while (count > static_cast<std::size_t>(shape.threshold)) {
    shape.capacity *= 2;
    shape.threshold *= 2;
  }
  return shape;
}

std::int32_t java_string_hash(std::string_view s) {
  std::uint32_t h = 0;
  for (char c : s) h = 31 * h + static_cast<unsigned char>(c);
  return static_cast<std::int32_t>(h);
}

std::vector<std::size_t> java_hash_map_order(const std::vector<std::string>& keys_in_put_order,
                                             std::int32_t capacity) {
  // HashMap spreads the hash (h ^ h >>> 16) and walks its buckets in index order; within a
  // bucket, keys keep their insertion order (resizing splits buckets keeping relative order).
  auto bucket = [capacity](const std::string& k) {
    const auto h = static_cast<std::uint32_t>(java_string_hash(k));
    return (h ^ (h >> 16)) & static_cast<std::uint32_t>(capacity - 1);
  };
  std::vector<std::size_t> order(keys_in_put_order.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return bucket(keys_in_put_order[a]) < bucket(keys_in_put_order[b]);
  });
  return order;
}

}  // namespace arena::jser
