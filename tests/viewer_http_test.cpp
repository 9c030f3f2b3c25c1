// The web viewer's HTTP reading and writing, without sockets: every odd request is refused with
// the right status, and responses are exact bytes.
#include <gtest/gtest.h>

#include <string>

#include "view/http.hpp"

namespace arena::view {
namespace {

ParsedRequest parse(const std::string& head) {
  return parse_request(head);
}

TEST(ViewerHttp, ParsesAGetWithItsQuery) {
  const auto p = parse(
      "GET /api/record?path=run%2FGroup0_WhiteGroup1_Black.json&known=12-34 HTTP/1.1\r\n"
      "Host: 127.0.0.1:8080\r\nUser-Agent: test\r\n\r\n");
  ASSERT_TRUE(p.request) << p.error;
  EXPECT_EQ(p.request->method, "GET");
  EXPECT_EQ(p.request->path, "/api/record");
  EXPECT_EQ(p.request->query.at("path"), "run/Group0_WhiteGroup1_Black.json");
  EXPECT_EQ(p.request->query.at("known"), "12-34");
}

TEST(ViewerHttp, DecodesPercentAndPlusOnlyWhereTheyMeanSomething) {
  const auto p = parse("HEAD /a%20b+c?x=1+2%2B3&empty=&flag HTTP/1.0\n\n");
  ASSERT_TRUE(p.request) << p.error;
  EXPECT_EQ(p.request->method, "HEAD");
  EXPECT_EQ(p.request->path, "/a b+c");
  EXPECT_EQ(p.request->query.at("x"), "1 2+3");
  EXPECT_EQ(p.request->query.at("empty"), "");
  EXPECT_EQ(p.request->query.at("flag"), "");
}

TEST(ViewerHttp, RefusesWhatItDoesNotSpeak) {
  struct Case {
    std::string head;
    int status;
  };
  const Case cases[] = {
      {"POST / HTTP/1.1\r\n\r\n", 405},
      {"DELETE /x HTTP/1.1\r\n\r\n", 405},
      {"GET / HTTP/2.0\r\n\r\n", 505},
      {"GET / SPDY\r\n\r\n", 505},
      {"GET /\r\n\r\n", 400},            // HTTP/0.9 style
      {"GET  / HTTP/1.1\r\n\r\n", 400},  // double space
      {"GET / HTTP/1.1 extra\r\n\r\n", 400},
      {"\r\n\r\n", 400},
      {"G(T / HTTP/1.1\r\n\r\n", 400},
      {"GET relative HTTP/1.1\r\n\r\n", 400},
      {"GET http://example.org/ HTTP/1.1\r\n\r\n", 400},  // absolute form: not a proxy
      {"GET /%zz HTTP/1.1\r\n\r\n", 400},
      {"GET /%4 HTTP/1.1\r\n\r\n", 400},
      {"GET /% HTTP/1.1\r\n\r\n", 400},
      {"GET /a%00b HTTP/1.1\r\n\r\n", 400},  // NUL smuggled into a path
      {"GET /?path=%00 HTTP/1.1\r\n\r\n", 400},
      {"GET /\x7f HTTP/1.1\r\n\r\n", 400},
      {"GET /\xc3\xa9 HTTP/1.1\r\n\r\n", 400},  // raw bytes must be percent-encoded
      {"GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\n: empty name\r\n\r\n", 400},
      {"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400},
      {"GET /" + std::string(kMaxTarget, 'a') + " HTTP/1.1\r\n\r\n", 414},
      {"GET / HTTP/1.1\r\nX: " + std::string(kMaxRequestHead, 'a') + "\r\n\r\n", 431},
  };
  for (const Case& c : cases) {
    const auto p = parse(c.head);
    EXPECT_FALSE(p.request) << c.head;
    EXPECT_EQ(p.status, c.status) << c.head << " -> " << p.error;
    EXPECT_FALSE(p.error.empty());
  }
}

TEST(ViewerHttp, FindsTheEndOfTheHead) {
  EXPECT_EQ(find_head_end("GET / HTTP/1.1\r\nHost: x\r\n"), std::string::npos);
  EXPECT_EQ(find_head_end("GET / HTTP/1.1\r\n\r\nbody"), 18u);
  EXPECT_EQ(find_head_end("GET / HTTP/1.1\n\n"), 16u);
}

TEST(ViewerHttp, ResponsesAreExactBytes) {
  HttpResponse r = json_response("{\"a\":1}");
  EXPECT_EQ(serialize(r),
            "HTTP/1.1 200 OK\r\n"
            "Content-Type: application/json\r\n"
            "Content-Length: 7\r\n"
            "Cache-Control: no-store\r\n"
            "X-Content-Type-Options: nosniff\r\n"
            "Content-Security-Policy: default-src 'self'; img-src 'self' data:\r\n"
            "Connection: close\r\n"
            "\r\n"
            "{\"a\":1}");
  r.head_only = true;  // HEAD: the length of the body it would have had, and no body
  EXPECT_EQ(serialize(r).substr(serialize(r).size() - 4), "\r\n\r\n");
  EXPECT_NE(serialize(r).find("Content-Length: 7\r\n"), std::string::npos);
}

TEST(ViewerHttp, ErrorBodiesAreBoundedAndPrintable) {
  const HttpResponse r = error_response(404, "not found: " + std::string(1000, 'x') + "\x01");
  EXPECT_EQ(r.status, 404);
  EXPECT_LT(r.body.size(), 400u);
  EXPECT_EQ(r.body.rfind("404 Not Found: not found: xxx", 0), 0u);
  for (char c : r.body) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f));
}

}  // namespace
}  // namespace arena::view
