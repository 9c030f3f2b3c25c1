#pragma once
// Opening a server's listening socket, shared by the line-protocol and the Morris servers.
#include <asio/ip/tcp.hpp>
#include <cstdint>
#include <string>
#include <string_view>

namespace arena {

// Binds `acceptor` to host:port (port 0: a free port the system picks) and listens; returns the
// port. Throws std::runtime_error naming the address (and `role`, e.g. "White", when given).
std::uint16_t open_listener(asio::ip::tcp::acceptor& acceptor, const std::string& host,
                            std::uint16_t port, std::string_view role = {});

}  // namespace arena
