#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "view/web_server.hpp"

namespace arena::cli {

void add_web(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "web",
      "Serve the web viewer: the games and tournaments in a folder, finished or being played "
      "(followed live), drawn in the browser");
  struct Options {
    view::WebServerOptions server;
    std::string folder = "records";
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("folder", o->folder, "Folder to show: records, tournament folders (read only)")
      ->capture_default_str();
  cmd->add_option("--host", o->server.host,
                  "Address to listen on (the viewer is meant for this machine: 127.0.0.1)")
      ->capture_default_str();
  cmd->add_option("--port", o->server.port, "TCP port (0: any free port)")->capture_default_str();
  cmd->callback([o, &exit_code] {
    o->server.root = o->folder;
    try {
      view::WebServer server(o->server, std::cout);
      const auto port = server.listen();
      fmt::print("arena web viewer on http://{}:{}/ showing {}\n", o->server.host, port, o->folder);
      std::cout.flush();
      server.run(true);
    } catch (const std::exception& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      exit_code = 1;
    }
  });
}

}  // namespace arena::cli
