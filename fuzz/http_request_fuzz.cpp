// libFuzzer target: arbitrary bytes as an HTTP request head to the web viewer, parsed and answered
// over an empty served folder. Nothing may crash or hang; refusals must carry a reason.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "view/web_app.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::string dir;  // the empty served folder, removed when the fuzzer exits
  static arena::view::WebApp* app = [] {
    dir = (std::filesystem::temp_directory_path() / "arena-fuzz-XXXXXX").string();
    if (::mkdtemp(dir.data()) == nullptr) __builtin_trap();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    });
    return new arena::view::WebApp(dir);
  }();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto parsed = arena::view::parse_request(bytes);
  if (!parsed.request && parsed.error.empty()) __builtin_trap();
  const arena::view::HttpResponse r = app->handle_head(bytes);
  if (r.status < 200 || r.status > 599) __builtin_trap();
  (void)arena::view::serialize(r);
  return 0;
}
