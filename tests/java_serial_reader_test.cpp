// The Java serialization reader against hostile and odd streams: every bad stream gets a
// StreamError with a clear message (never a crash, a hang or a huge allocation), incomplete input
// waits for more, and the handle table follows the stream (references across messages, resets).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "core/rng.hpp"
#include "protocol/java_serial/constants.hpp"
#include "protocol/java_serial/reader.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_messages.hpp"

namespace arena::jser {
namespace {

const std::string kHeader("\xAC\xED\x00\x05", 4);

std::string u16(unsigned v) {
  return {static_cast<char>(v >> 8), static_cast<char>(v)};
}
std::string u32(std::uint32_t v) {
  return u16(v >> 16) + u16(v & 0xFFFF);
}
std::string u64(std::uint64_t v) {
  return u32(static_cast<std::uint32_t>(v >> 32)) + u32(static_cast<std::uint32_t>(v));
}
std::string utf(const std::string& s) {
  return u16(static_cast<unsigned>(s.size())) + s;
}
std::string byte(int b) {
  return std::string(1, static_cast<char>(b));
}

// A class descriptor with no fields and no superclass.
std::string plain_class(const std::string& name, int flags = SC_SERIALIZABLE) {
  return byte(TC_CLASSDESC) + utf(name) + u64(1) + byte(flags) + u16(0) + byte(TC_ENDBLOCKDATA) +
         byte(TC_NULL);
}

// The message of the StreamError reading `bytes` throws, or "" if none.
std::string error_of(const std::string& bytes, ReaderLimits limits = {}) {
  Reader r(std::move(limits));
  r.feed(bytes);
  try {
    while (r.next()) {
    }
  } catch (const StreamError& e) {
    return e.what();
  }
  return "";
}

TEST(JavaSerialReader, RejectsAStreamWithoutTheHeader) {
  EXPECT_EQ(error_of("GET / HTTP/1.0\r\n"),
            "not a Java serialization stream: it starts 47 45 54 20, not AC ED 00 05");
  EXPECT_EQ(error_of(std::string("\xAC\xED\x00\x04", 4)),
            "not a Java serialization stream: it starts AC ED 00 04, not AC ED 00 05");
}

TEST(JavaSerialReader, WaitsForTheRestOfAMessage) {
  const std::string msg = kHeader + byte(TC_STRING) + utf("hello");
  Reader r;
  for (std::size_t i = 0; i + 1 < msg.size(); ++i) {
    r.feed(msg.substr(i, 1));
    EXPECT_EQ(r.next(), std::nullopt) << i;
  }
  r.feed(msg.substr(msg.size() - 1));
  const auto v = r.next();
  ASSERT_TRUE(v);
  EXPECT_EQ(r.string(*v, "test"), "hello");
  EXPECT_EQ(r.next(), std::nullopt);
}

TEST(JavaSerialReader, HugeLengthsAreErrorsNotAllocations) {
  EXPECT_EQ(error_of(kHeader + byte(TC_LONGSTRING) + u64(0x4000000000000000ULL)),
            "a string of 4611686018427387904 bytes is larger than the message limit");
  EXPECT_EQ(error_of(kHeader + byte(TC_LONGSTRING) + u64(0xFFFFFFFFFFFFFFFFULL)),
            "a string of -1 bytes is larger than the message limit");
  const std::string int_array = byte(TC_ARRAY) + plain_class("[I");
  EXPECT_EQ(error_of(kHeader + int_array + u32(0x7FFFFFFF)), "an array of 2147483647 elements");
  EXPECT_EQ(error_of(kHeader + int_array + u32(0x80000000)), "an array of -2147483648 elements");
  // Within the element limit but more bytes than a message may have.
  ReaderLimits small;
  small.max_message_bytes = 1000;
  EXPECT_EQ(error_of(kHeader + int_array + u32(900), small), "a message is larger than 1000 bytes");
  EXPECT_EQ(error_of(kHeader + byte(TC_STRING) + u16(0xFFFF), small),
            "a message is larger than 1000 bytes");
  // Block data with a negative length.
  const std::string with_write_method = byte(TC_CLASSDESC) + utf("X") + u64(1) +
                                        byte(SC_SERIALIZABLE | SC_WRITE_METHOD) + u16(0) +
                                        byte(TC_ENDBLOCKDATA) + byte(TC_NULL);
  EXPECT_EQ(error_of(kHeader + byte(TC_OBJECT) + with_write_method + byte(TC_BLOCKDATALONG) +
                     u32(0xFFFFFFF0)),
            "block data of -16 bytes");
}

TEST(JavaSerialReader, AMessageThatNeverEndsIsCutAtTheLimit) {
  ReaderLimits small;
  small.max_message_bytes = 4096;
  Reader r(small);
  r.feed(kHeader);
  // An array of 4000 strings of 3 bytes each arrives piece by piece: too big for one message.
  r.feed(byte(TC_ARRAY) + plain_class("[Ljava.lang.Object;") + u32(4000));
  std::string error;
  try {
    for (int i = 0; i < 4000 && error.empty(); ++i) {
      r.feed(byte(TC_STRING) + utf("x"));
      EXPECT_EQ(r.next(), std::nullopt);
    }
  } catch (const StreamError& e) {
    error = e.what();
  }
  EXPECT_EQ(error, "a message is larger than 4096 bytes");
}

TEST(JavaSerialReader, DeepNestingIsAnError) {
  std::string nested = kHeader;
  const std::string object_array = plain_class("[Ljava.lang.Object;");
  nested += byte(TC_ARRAY) + object_array + u32(1);
  for (int i = 0; i < 1000; ++i)
    nested += byte(TC_ARRAY) + byte(TC_REFERENCE) + u32(kBaseHandle) + u32(1);
  EXPECT_EQ(error_of(nested), "objects nested deeper than 64");
}

TEST(JavaSerialReader, ReferencesMustPointAtSomethingRead) {
  EXPECT_EQ(error_of(kHeader + byte(TC_REFERENCE) + u32(kBaseHandle + 5)),
            "a reference to handle 0x7e0005, which the stream has not defined");
  EXPECT_EQ(error_of(kHeader + byte(TC_REFERENCE) + u32(3)),
            "a reference to handle 0x3, which the stream has not defined");
  // A string handle used as a class descriptor.
  EXPECT_EQ(error_of(kHeader + byte(TC_STRING) + utf("x") + byte(TC_OBJECT) + byte(TC_REFERENCE) +
                     u32(kBaseHandle)),
            "a class descriptor refers to a string");
}

TEST(JavaSerialReader, ASuperclassLoopIsAnError) {
  // Class A names itself as its superclass (its handle exists before its superclass is read).
  const std::string self_super = byte(TC_CLASSDESC) + utf("A") + u64(1) + byte(SC_SERIALIZABLE) +
                                 u16(0) + byte(TC_ENDBLOCKDATA) + byte(TC_REFERENCE) +
                                 u32(kBaseHandle);
  EXPECT_EQ(error_of(kHeader + byte(TC_OBJECT) + self_super),
            "a superclass chain that loops or is too deep");
}

TEST(JavaSerialReader, AnObjectMayReferToItself) {
  // class Node { Object next; } whose next is the node itself: legal Java, read without looping.
  const std::string node = byte(TC_CLASSDESC) + utf("Node") + u64(1) + byte(SC_SERIALIZABLE) +
                           u16(1) + byte('L') + utf("next") + byte(TC_STRING) +
                           utf("Ljava/lang/Object;") + byte(TC_ENDBLOCKDATA) + byte(TC_NULL);
  // Handles: 0 the class, 1 the type string, 2 the object.
  Reader r;
  r.feed(kHeader + byte(TC_OBJECT) + node + byte(TC_REFERENCE) + u32(kBaseHandle + 2));
  const auto v = r.next();
  ASSERT_TRUE(v);
  const Object& o = r.object(*v, "node");
  ASSERT_EQ(o.classes.size(), 1u);
  EXPECT_EQ(o.classes[0].fields[0].ref, v->ref);
}

TEST(JavaSerialReader, ResetForgetsEveryHandle) {
  Writer w;
  w.string("kept");
  w.string("kept");  // a back-reference
  std::string bytes = w.take();
  Reader r;
  r.feed(bytes);
  EXPECT_EQ(r.string(*r.next(), "first"), "kept");
  EXPECT_EQ(r.string(*r.next(), "second"), "kept");
  r.feed(byte(TC_RESET) + byte(TC_REFERENCE) + u32(kBaseHandle));
  try {
    r.next();
    FAIL() << "a reference after a reset was accepted";
  } catch (const StreamError& e) {
    EXPECT_STREQ(e.what(), "a reference to handle 0x7e0000, which the stream has not defined");
  }
}

TEST(JavaSerialReader, OddCodesAreClearErrors) {
  EXPECT_EQ(error_of(kHeader + byte(0x42)), "unknown type code 0x42 at byte 4");
  EXPECT_EQ(error_of(kHeader + byte(TC_EXCEPTION)),
            "the writer reported an exception while writing (TC_EXCEPTION)");
  EXPECT_EQ(error_of(kHeader + byte(TC_BLOCKDATA) + byte(1) + "x"),
            "block data (0x77) where an object was expected");
  EXPECT_EQ(error_of(kHeader + byte(TC_ARRAY) + plain_class("NotAnArray") + u32(0)),
            "an array of class NotAnArray, which is not an array class");
  // A reset may only come between objects.
  EXPECT_EQ(error_of(kHeader + byte(TC_ARRAY) + plain_class("[Ljava.lang.Object;") + u32(1) +
                     byte(TC_RESET)),
            "a reset inside an object");
  EXPECT_EQ(error_of(kHeader + byte(TC_OBJECT) + plain_class("NotSerializable", 0)),
            "class NotSerializable is not serializable");
  EXPECT_EQ(error_of(kHeader + byte(TC_OBJECT) + plain_class("Old", SC_EXTERNALIZABLE)),
            "class Old uses the old externalizable format, which cannot be read");
  EXPECT_EQ(
      error_of(kHeader + byte(TC_ENUM) + plain_class("NotAnEnum") + byte(TC_STRING) + utf("X")),
      "class NotAnEnum is not an enum");
}

TEST(JavaSerialReader, TheMulinoAllowListRejectsOtherClasses) {
  EXPECT_EQ(error_of(kHeader + byte(TC_OBJECT) + plain_class("java.lang.Runtime"),
                     mulino::reader_limits()),
            "class java.lang.Runtime is not expected here");
  // Allowed class names, wrong shape: decoding says what is wrong.
  Reader r(mulino::reader_limits());
  r.feed(kHeader + byte(TC_STRING) + utf("a1"));
  const auto v = r.next();
  ASSERT_TRUE(v);
  try {
    mulino::decode_state(r, *v);
    FAIL();
  } catch (const StreamError& e) {
    EXPECT_STREQ(e.what(), "the server's message: expected an object, got a string");
  }
}

TEST(JavaSerialReader, TooManyHandlesOrBytesAreErrors) {
  ReaderLimits few;
  few.max_handles = 10;
  std::string strings = kHeader;
  for (int i = 0; i < 11; ++i) {
    strings += byte(TC_STRING);
    strings += utf(fmt::format("s{}", i));
  }
  EXPECT_EQ(error_of(strings, few), "the stream has more than 10 objects");
  ReaderLimits little;
  little.max_stored_bytes = 2000;
  std::string big = kHeader;
  for (int i = 0; i < 10; ++i) big += byte(TC_STRING) + utf(std::string(500, 'x'));
  EXPECT_EQ(error_of(big, little), "the stream holds more than 2000 bytes of objects");
}

// Random bytes after a valid start, and random corruptions of a real message: the reader
// returns, waits or throws StreamError, and nothing else (run under ASan/UBSan in CI).
TEST(JavaSerialReader, RandomInputNeverCrashes) {
  Writer w;
  mulino::encode_state(w, mulino::WireState{});
  const std::string valid = w.take();
  Rng rng(42);
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = valid;
    const int flips = 1 + static_cast<int>(rng.below(8));
    for (int i = 0; i < flips; ++i)
      bytes[rng.below(bytes.size())] = static_cast<char>(rng.below(256));
    if (round % 3 == 0) bytes = kHeader + bytes.substr(4, rng.below(bytes.size()));
    Reader r(mulino::reader_limits());
    r.feed(bytes);
    try {
      while (auto v = r.next()) {
        try {
          mulino::decode_state(r, *v);
        } catch (const StreamError&) {
        }
      }
    } catch (const StreamError&) {
    }
  }
}

}  // namespace
}  // namespace arena::jser
