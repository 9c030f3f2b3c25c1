#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "referee/morris_server.hpp"

namespace arena::cli {

int serve_morris(const MorrisServerOptions& options) {
  MorrisServer server(options, std::cout);
  try {
    const auto [white, black] = server.listen();
    fmt::print(
        "arena morris server listening on {}:{} (White) and {}:{} (Black), {} ms per move, records "
        "in {}\n",
        options.host, white, options.host, black, options.move_time_ms,
        server.run_directory().string());
    std::cout.flush();
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  server.run(true);
  return 0;
}

}  // namespace arena::cli
