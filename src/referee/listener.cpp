#include "referee/listener.hpp"

#include <fmt/format.h>

#include <asio.hpp>
#include <stdexcept>

namespace arena {

std::uint16_t open_listener(asio::ip::tcp::acceptor& acceptor, const std::string& host,
                            std::uint16_t port, std::string_view role) {
  using asio::ip::tcp;
  asio::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (ec) throw std::runtime_error(fmt::format("'{}' is not an IP address", host));
  const tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), ec);
  // A restarted server must not wait for the old connections' TIME_WAIT to end.
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error(fmt::format("cannot listen on {}:{}{}: {}", host, port,
                                         role.empty() ? "" : fmt::format(" for {}", role),
                                         ec.message()));
  return acceptor.local_endpoint().port();
}

}  // namespace arena
