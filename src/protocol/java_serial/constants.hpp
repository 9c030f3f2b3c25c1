#pragma once
// The byte codes of the Java Object Serialization Stream Protocol (version 5, what
// java.io.ObjectOutputStream has written since JDK 1.2). Names follow the specification.
#include <cstdint>

namespace arena::jser {

inline constexpr std::uint16_t kStreamMagic = 0xACED;
inline constexpr std::uint16_t kStreamVersion = 5;
inline constexpr std::uint32_t kBaseHandle = 0x7E0000;  // the first handle of a stream

enum Tc : std::uint8_t {
  TC_NULL = 0x70,
  TC_REFERENCE = 0x71,
  TC_CLASSDESC = 0x72,
  TC_OBJECT = 0x73,
  TC_STRING = 0x74,
  TC_ARRAY = 0x75,
  TC_CLASS = 0x76,
  TC_BLOCKDATA = 0x77,
  TC_ENDBLOCKDATA = 0x78,
  TC_RESET = 0x79,
  TC_BLOCKDATALONG = 0x7A,
  TC_EXCEPTION = 0x7B,
  TC_LONGSTRING = 0x7C,
  TC_PROXYCLASSDESC = 0x7D,
  TC_ENUM = 0x7E,
};

// classDescFlags
inline constexpr std::uint8_t SC_WRITE_METHOD =
    0x01;  // the class has writeObject: annotations follow
inline constexpr std::uint8_t SC_SERIALIZABLE = 0x02;
inline constexpr std::uint8_t SC_EXTERNALIZABLE = 0x04;
inline constexpr std::uint8_t SC_BLOCK_DATA = 0x08;  // externalizable data in block mode
inline constexpr std::uint8_t SC_ENUM = 0x10;

}  // namespace arena::jser
