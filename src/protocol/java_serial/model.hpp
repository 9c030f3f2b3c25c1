#pragma once
// What a Java serialization stream holds, as the reader decodes it. Every object, string, enum
// constant, array and class descriptor gets a handle in the stream's table; values refer to them
// by handle, so back-references (even loops) cost nothing and nothing is owned twice.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace arena::jser {

// Index into the stream's handle table (0 is the wire handle 0x7E0000).
using Handle = std::uint32_t;

// A field value or array element: null, a primitive, or a reference to a handle.
struct Value {
  enum class Kind : std::uint8_t { Null, Int, Float, Ref };
  Kind kind = Kind::Null;
  char type = 0;       // the Java type code of a primitive: B C D F I J S Z
  std::int64_t i = 0;  // B C I J S Z
  double f = 0;        // F D
  Handle ref = 0;      // Ref

  static Value null() { return {}; }
  static Value integer(char type, std::int64_t v) { return {Kind::Int, type, v, 0, 0}; }
  static Value floating(char type, double v) { return {Kind::Float, type, 0, v, 0}; }
  static Value reference(Handle h) { return {Kind::Ref, 0, 0, 0, h}; }
  bool is_null() const { return kind == Kind::Null; }
  bool is_ref() const { return kind == Kind::Ref; }
};

struct FieldDesc {
  char type = 0;  // B C D F I J S Z, L (object) or [ (array)
  std::string name;
  std::string type_name;  // L and [ only: the JVM signature, e.g. "Ljava/lang/String;"
};

struct ClassDesc {
  std::string name;       // e.g. "java.util.HashMap", "[Ljava.lang.String;"
  std::int64_t suid = 0;  // serialVersionUID
  std::uint8_t flags = 0;
  std::vector<FieldDesc> fields;  // in wire order
  std::optional<Handle> super;    // the serializable superclass, if any
  bool proxy = false;
  std::vector<std::string> interfaces;  // proxy classes only
  bool complete = false;                // false while the descriptor is still being read
};

// Data a class's writeObject (or writeExternal) wrote after its fields: raw block bytes and
// objects, in order.
struct Annotation {
  std::optional<std::string> block;  // set for block data
  Value object;                      // otherwise
};

// The part of an object one class in its hierarchy wrote.
struct ClassData {
  Handle cls = 0;
  std::vector<Value> fields;  // as the class descriptor lists them
  std::vector<Annotation> annotations;
};

struct Object {
  Handle cls = 0;
  std::vector<ClassData> classes;  // the topmost serializable superclass first
};

struct String {
  std::string text;  // modified UTF-8 as on the wire (plain UTF-8 for ASCII text)
};

struct EnumConstant {
  Handle cls = 0;
  std::string name;
};

struct Array {
  Handle cls = 0;
  char element_type = 0;  // as a field type code
  std::vector<Value> items;
};

struct ClassObject {  // a java.lang.Class written with TC_CLASS
  Handle desc = 0;
};

using Entity = std::variant<ClassDesc, Object, String, EnumConstant, Array, ClassObject>;

}  // namespace arena::jser
