#include "protocol/java_serial/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "core/text.hpp"
#include "protocol/java_serial/constants.hpp"

namespace arena::jser {
namespace {

bool is_primitive_type(char t) {
  return t == 'B' || t == 'C' || t == 'D' || t == 'F' || t == 'I' || t == 'J' || t == 'S' ||
         t == 'Z';
}
bool is_field_type(char t) {
  return is_primitive_type(t) || t == 'L' || t == '[';
}

std::size_t primitive_size(char t) {
  switch (t) {
    case 'B':
    case 'Z':
      return 1;
    case 'C':
    case 'S':
      return 2;
    case 'I':
    case 'F':
      return 4;
    default:
      return 8;  // D J
  }
}

// Shown in errors: the entity kind a handle holds.
std::string_view kind_name(const Entity& e) {
  switch (e.index()) {
    case 0:
      return "class descriptor";
    case 1:
      return "object";
    case 2:
      return "string";
    case 3:
      return "enum constant";
    case 4:
      return "array";
    default:
      return "class";
  }
}

}  // namespace

Reader::Reader(ReaderLimits limits) : limits_(std::move(limits)) {}

void Reader::feed(std::string_view bytes) {
  if (failed_) return;
  // Drop what earlier objects used, so the buffer holds at most one message and a read's worth.
  if (pos_ > 0) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  buffer_.append(bytes);
}

void Reader::fail(const std::string& why) {
  failed_ = true;
  throw StreamError(why);
}

void Reader::need(std::size_t n) {
  if (cursor_ - message_start_ + n > limits_.max_message_bytes)
    fail(fmt::format("a message is larger than {} bytes", limits_.max_message_bytes));
  if (buffer_.size() - cursor_ < n) {
    wanted_ = cursor_ + n - pos_;
    throw NeedMore{};
  }
}

std::uint8_t Reader::u8() {
  need(1);
  return static_cast<std::uint8_t>(buffer_[cursor_++]);
}

std::uint8_t Reader::peek() {
  need(1);
  return static_cast<std::uint8_t>(buffer_[cursor_]);
}

std::uint16_t Reader::u16() {
  const std::uint16_t hi = u8();
  return static_cast<std::uint16_t>((hi << 8) | u8());
}

std::int32_t Reader::i32() {
  need(4);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<std::uint8_t>(buffer_[cursor_++]);
  return static_cast<std::int32_t>(v);
}

std::int64_t Reader::i64() {
  need(8);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<std::uint8_t>(buffer_[cursor_++]);
  return static_cast<std::int64_t>(v);
}

std::string Reader::bytes(std::size_t n) {
  need(n);
  charge(n);
  std::string out = buffer_.substr(cursor_, n);
  cursor_ += n;
  return out;
}

std::string Reader::utf() {
  return bytes(u16());
}

std::string Reader::long_utf() {
  const std::int64_t n = i64();
  if (n < 0 || static_cast<std::uint64_t>(n) > limits_.max_message_bytes)
    fail(fmt::format("a string of {} bytes is larger than the message limit", n));
  return bytes(static_cast<std::size_t>(n));
}

void Reader::charge(std::size_t n) {
  stored_bytes_ += n;
  if (stored_bytes_ > limits_.max_stored_bytes)
    fail(fmt::format("the stream holds more than {} bytes of objects", limits_.max_stored_bytes));
}

Handle Reader::new_handle(Entity e) {
  if (table_.size() >= limits_.max_handles)
    fail(fmt::format("the stream has more than {} objects", limits_.max_handles));
  charge(sizeof(Entity));
  table_.push_back(std::move(e));
  return static_cast<Handle>(table_.size() - 1);
}

Handle Reader::handle_from_wire(std::int32_t wire) {
  const auto h = static_cast<std::int64_t>(wire) - kBaseHandle;
  if (h < 0 || h >= static_cast<std::int64_t>(table_.size()))
    fail(fmt::format("a reference to handle 0x{:x}, which the stream has not defined",
                     static_cast<std::uint32_t>(wire)));
  return static_cast<Handle>(h);
}

std::optional<Value> Reader::next() {
  if (failed_) throw StreamError("the stream already failed");
  // Parsing again before the bytes the last attempt ran out at have arrived cannot succeed.
  if (buffered() < wanted_) return std::nullopt;
  wanted_ = 0;
  while (true) {
    cursor_ = message_start_ = pos_;
    const std::size_t handles_before = table_.size();
    const std::size_t stored_before = stored_bytes_;
    try {
      if (!header_read_) {
        const std::uint16_t magic = u16(), version = u16();
        if (magic != kStreamMagic || version != kStreamVersion)
          fail(
              fmt::format("not a Java serialization stream: it starts {:02X} {:02X} {:02X} {:02X}, "
                          "not AC ED 00 05",
                          magic >> 8, magic & 0xFF, version >> 8, version & 0xFF));
        header_read_ = true;
        pos_ = cursor_;
        continue;
      }
      if (peek() == TC_RESET) {
        ++cursor_;
        table_.clear();
        stored_bytes_ = 0;
        pos_ = cursor_;
        continue;
      }
      const Value v = read_content(0);
      pos_ = cursor_;
      return v;
    } catch (const NeedMore&) {
      // Undo the partial message; it is read again from its start when more bytes arrive.
      table_.resize(handles_before);
      stored_bytes_ = stored_before;
      if (buffered() >= limits_.max_message_bytes)
        fail(fmt::format("a message is larger than {} bytes", limits_.max_message_bytes));
      return std::nullopt;
    }
  }
}

Value Reader::read_content(int depth) {
  if (depth > limits_.max_depth)
    fail(fmt::format("objects nested deeper than {}", limits_.max_depth));
  const std::uint8_t tc = u8();
  switch (tc) {
    case TC_NULL:
      return Value::null();
    case TC_REFERENCE:
      return Value::reference(handle_from_wire(i32()));
    case TC_STRING:
      return read_new_string(false);
    case TC_LONGSTRING:
      return read_new_string(true);
    case TC_OBJECT:
      return read_new_object(depth);
    case TC_ARRAY:
      return read_new_array(depth);
    case TC_ENUM:
      return read_new_enum(depth);
    case TC_CLASS: {
      const auto desc = read_class_desc(depth + 1);
      if (!desc) fail("a class object without a descriptor");
      return Value::reference(new_handle(ClassObject{*desc}));
    }
    case TC_CLASSDESC:
    case TC_PROXYCLASSDESC:
      return Value::reference(read_new_class_desc(tc == TC_PROXYCLASSDESC, depth));
    case TC_RESET:
      fail("a reset inside an object");
    case TC_EXCEPTION:
      fail("the writer reported an exception while writing (TC_EXCEPTION)");
    case TC_BLOCKDATA:
    case TC_BLOCKDATALONG:
    case TC_ENDBLOCKDATA:
      fail(fmt::format("block data (0x{:02X}) where an object was expected", tc));
    default:
      fail(fmt::format("unknown type code 0x{:02X} at byte {}", tc, cursor_ - 1));
  }
}

Value Reader::read_new_string(bool long_form) {
  std::string text = long_form ? long_utf() : utf();
  return Value::reference(new_handle(String{std::move(text)}));
}

std::optional<Handle> Reader::read_class_desc(int depth) {
  if (depth > limits_.max_depth)
    fail(fmt::format("objects nested deeper than {}", limits_.max_depth));
  const std::uint8_t tc = u8();
  switch (tc) {
    case TC_NULL:
      return std::nullopt;
    case TC_REFERENCE: {
      const Handle h = handle_from_wire(i32());
      if (!std::holds_alternative<ClassDesc>(table_[h]))
        fail(fmt::format("a class descriptor refers to a {}", kind_name(table_[h])));
      return h;
    }
    case TC_CLASSDESC:
    case TC_PROXYCLASSDESC:
      return read_new_class_desc(tc == TC_PROXYCLASSDESC, depth);
    default:
      fail(fmt::format("type code 0x{:02X} where a class descriptor was expected", tc));
  }
}

Handle Reader::read_new_class_desc(bool proxy, int depth) {
  ClassDesc desc;
  desc.proxy = proxy;
  if (proxy) {
    const std::int32_t count = i32();
    if (count < 0 || count > 65535) fail(fmt::format("a proxy class with {} interfaces", count));
    for (std::int32_t i = 0; i < count; ++i) {
      desc.interfaces.push_back(utf());
      if (limits_.accept_class && !limits_.accept_class(desc.interfaces.back()))
        fail(fmt::format("class {} is not expected here", printable(desc.interfaces.back())));
    }
    desc.flags = SC_SERIALIZABLE;
    desc.name = "<proxy>";
  } else {
    desc.name = utf();
    if (desc.name.empty()) fail("a class descriptor without a name");
    if (limits_.accept_class && !limits_.accept_class(desc.name))
      fail(fmt::format("class {} is not expected here", printable(desc.name)));
    desc.suid = i64();
  }
  const Handle h = new_handle(desc);  // placeholder: its own fields may refer back to it
  if (!proxy) {
    desc.flags = u8();
    if ((desc.flags & SC_SERIALIZABLE) && (desc.flags & SC_EXTERNALIZABLE))
      fail(fmt::format("class {} is both serializable and externalizable", printable(desc.name)));
    const std::uint16_t count = u16();
    for (std::uint16_t i = 0; i < count; ++i) {
      FieldDesc f;
      f.type = static_cast<char>(u8());
      if (!is_field_type(f.type))
        fail(fmt::format("class {} has a field of unknown type code 0x{:02X}", printable(desc.name),
                         static_cast<std::uint8_t>(f.type)));
      f.name = utf();
      if (f.type == 'L' || f.type == '[') f.type_name = read_type_string(depth);
      charge(sizeof(FieldDesc));
      desc.fields.push_back(std::move(f));
    }
  }
  read_annotations(depth + 1);  // class annotations: kept by no one (Java ignores them too)
  desc.super = read_class_desc(depth + 1);
  desc.complete = true;
  table_[h] = std::move(desc);
  return h;
}

std::string Reader::read_type_string(int depth) {
  const Value v = read_content(depth + 1);
  if (!v.is_ref() || !std::holds_alternative<String>(table_[v.ref]))
    fail("a field type name that is not a string");
  return std::get<String>(table_[v.ref]).text;
}

// The class and its serializable superclasses, topmost first. A chain that loops or is deeper
// than the nesting limit is an error.
std::vector<Handle> Reader::hierarchy(Handle cls) {
  std::vector<Handle> chain;
  std::optional<Handle> c = cls;
  while (c) {
    if (static_cast<int>(chain.size()) > limits_.max_depth)
      fail("a superclass chain that loops or is too deep");
    const auto& d = std::get<ClassDesc>(table_[*c]);
    if (!d.complete)
      fail(fmt::format("class {} is used inside its own descriptor", printable(d.name)));
    chain.push_back(*c);
    c = d.super;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

Value Reader::read_new_object(int depth) {
  const auto cls = read_class_desc(depth + 1);
  if (!cls) fail("an object without a class");
  {
    const auto& d = std::get<ClassDesc>(table_[*cls]);
    if (d.flags & SC_ENUM)
      fail(fmt::format("enum class {} written as an object", printable(d.name)));
    if (!d.name.empty() && d.name[0] == '[')
      fail(fmt::format("array class {} written as an object", printable(d.name)));
  }
  const auto chain = hierarchy(*cls);
  const Handle h = new_handle(Object{*cls, {}});
  Object obj{*cls, {}};
  for (const Handle c : chain) {
    ClassData data;
    data.cls = c;
    // Copy what we need: reading below may grow the table and move its entries.
    const ClassDesc d = std::get<ClassDesc>(table_[c]);
    if (d.flags & SC_EXTERNALIZABLE) {
      if (!(d.flags & SC_BLOCK_DATA))
        fail(fmt::format("class {} uses the old externalizable format, which cannot be read",
                         printable(d.name)));
      data.annotations = read_annotations(depth + 1);
    } else if (d.flags & SC_SERIALIZABLE) {
      for (const FieldDesc& f : d.fields) {
        charge(sizeof(Value));
        data.fields.push_back(is_primitive_type(f.type) ? read_primitive(f.type)
                                                        : read_content(depth + 1));
      }
      if (d.flags & SC_WRITE_METHOD) data.annotations = read_annotations(depth + 1);
    } else {
      fail(fmt::format("class {} is not serializable", printable(d.name)));
    }
    charge(sizeof(ClassData));
    obj.classes.push_back(std::move(data));
  }
  table_[h] = std::move(obj);
  return Value::reference(h);
}

Value Reader::read_primitive(char type) {
  switch (type) {
    case 'B':
      return Value::integer(type, static_cast<std::int8_t>(u8()));
    case 'Z':
      return Value::integer(type, u8() != 0);
    case 'C':
      return Value::integer(type, u16());
    case 'S':
      return Value::integer(type, static_cast<std::int16_t>(u16()));
    case 'I':
      return Value::integer(type, i32());
    case 'J':
      return Value::integer(type, i64());
    case 'F':
      return Value::floating(type, std::bit_cast<float>(static_cast<std::uint32_t>(i32())));
    default:
      return Value::floating(type, std::bit_cast<double>(static_cast<std::uint64_t>(i64())));
  }
}

Value Reader::read_new_array(int depth) {
  const auto cls = read_class_desc(depth + 1);
  if (!cls) fail("an array without a class");
  const std::string name = std::get<ClassDesc>(table_[*cls]).name;
  if (name.size() < 2 || name[0] != '[' || !is_field_type(name[1]))
    fail(fmt::format("an array of class {}, which is not an array class", printable(name)));
  const char type = name[1];
  const Handle h = new_handle(Array{*cls, type, {}});
  const std::int32_t length = i32();
  // Every element takes at least one byte, so a length beyond the message limit is a lie.
  if (length < 0 || static_cast<std::size_t>(length) > limits_.max_message_bytes)
    fail(fmt::format("an array of {} elements", length));
  if (is_primitive_type(type)) need(static_cast<std::size_t>(length) * primitive_size(type));
  Array arr{*cls, type, {}};
  for (std::int32_t i = 0; i < length; ++i) {
    charge(sizeof(Value));
    arr.items.push_back(is_primitive_type(type) ? read_primitive(type) : read_content(depth + 1));
  }
  table_[h] = std::move(arr);
  return Value::reference(h);
}

Value Reader::read_new_enum(int depth) {
  const auto cls = read_class_desc(depth + 1);
  if (!cls) fail("an enum constant without a class");
  {
    const auto& d = std::get<ClassDesc>(table_[*cls]);
    if (!(d.flags & SC_ENUM)) fail(fmt::format("class {} is not an enum", printable(d.name)));
  }
  const Handle h = new_handle(EnumConstant{*cls, {}});
  const Value name = read_content(depth + 1);
  if (!name.is_ref() || !std::holds_alternative<String>(table_[name.ref]))
    fail("an enum constant whose name is not a string");
  std::get<EnumConstant>(table_[h]).name = std::get<String>(table_[name.ref]).text;
  return Value::reference(h);
}

std::vector<Annotation> Reader::read_annotations(int depth) {
  std::vector<Annotation> out;
  while (true) {
    const std::uint8_t tc = peek();
    if (tc == TC_ENDBLOCKDATA) {
      ++cursor_;
      return out;
    }
    charge(sizeof(Annotation));
    if (tc == TC_BLOCKDATA) {
      ++cursor_;
      out.push_back({bytes(u8()), {}});
    } else if (tc == TC_BLOCKDATALONG) {
      ++cursor_;
      const std::int32_t n = i32();
      if (n < 0) fail(fmt::format("block data of {} bytes", n));
      out.push_back({bytes(static_cast<std::size_t>(n)), {}});
    } else {
      out.push_back({std::nullopt, read_content(depth)});
    }
  }
}

// ---- looking at what was read

const Entity& Reader::entity(Handle h) const {
  if (h >= table_.size()) throw StreamError(fmt::format("no object has handle {}", h));
  return table_[h];
}

const ClassDesc& Reader::class_desc(Handle h) const {
  const Entity& e = entity(h);
  if (!std::holds_alternative<ClassDesc>(e))
    throw StreamError(fmt::format("handle {} holds a {}, not a class descriptor", h, kind_name(e)));
  return std::get<ClassDesc>(e);
}

std::string Reader::describe(const Value& v) const {
  switch (v.kind) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Int:
    case Value::Kind::Float:
      return fmt::format("a primitive of type {}", v.type);
    case Value::Kind::Ref:
      break;
  }
  const Entity& e = entity(v.ref);
  if (const auto* o = std::get_if<Object>(&e))
    return "an object of class " + printable(class_desc(o->cls).name);
  if (const auto* c = std::get_if<EnumConstant>(&e))
    return "an enum constant of class " + printable(class_desc(c->cls).name);
  if (const auto* a = std::get_if<Array>(&e))
    return "an array of class " + printable(class_desc(a->cls).name);
  return std::string("a ") + std::string(kind_name(e));
}

template <class T>
static const T* get_if_ref(const Reader& r, const Value& v) {
  if (!v.is_ref()) return nullptr;
  return std::get_if<T>(&r.entity(v.ref));
}

const Object& Reader::object(const Value& v, std::string_view what) const {
  if (const auto* o = get_if_ref<Object>(*this, v)) return *o;
  throw StreamError(fmt::format("{}: expected an object, got {}", what, describe(v)));
}

const std::string& Reader::string(const Value& v, std::string_view what) const {
  if (const auto* s = get_if_ref<String>(*this, v)) return s->text;
  throw StreamError(fmt::format("{}: expected a string, got {}", what, describe(v)));
}

std::optional<std::string> Reader::string_or_null(const Value& v, std::string_view what) const {
  if (v.is_null()) return std::nullopt;
  return string(v, what);
}

const EnumConstant& Reader::enum_constant(const Value& v, std::string_view what) const {
  if (const auto* c = get_if_ref<EnumConstant>(*this, v)) return *c;
  throw StreamError(fmt::format("{}: expected an enum constant, got {}", what, describe(v)));
}

const Array& Reader::array(const Value& v, std::string_view what) const {
  if (const auto* a = get_if_ref<Array>(*this, v)) return *a;
  throw StreamError(fmt::format("{}: expected an array, got {}", what, describe(v)));
}

}  // namespace arena::jser
