#include "sandbox/game_network.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace arena {
namespace {

std::string errno_text(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

void bring_loopback_up() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(errno_text("socket"));
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  const bool ok = ::ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 &&
                  (ifr.ifr_flags |= IFF_UP, ::ioctl(fd, SIOCSIFFLAGS, &ifr) == 0);
  const int err = errno;
  ::close(fd);
  if (!ok) throw std::runtime_error(std::string("cannot bring lo up: ") + std::strerror(err));
}

}  // namespace

GameNetwork::GameNetwork() {
  original_ = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (original_ < 0) throw std::runtime_error(errno_text("cannot open /proc/thread-self/ns/net"));
  if (::unshare(CLONE_NEWNET) != 0) {
    const std::string why = errno_text("cannot create a network namespace (unshare)");
    ::close(original_);
    throw std::runtime_error(why);
  }
  try {
    bring_loopback_up();
  } catch (...) {
    ::setns(original_, CLONE_NEWNET);
    ::close(original_);
    throw;
  }
}

GameNetwork::~GameNetwork() {
  ::setns(original_, CLONE_NEWNET);
  ::close(original_);
}

std::string game_network_unavailable() {
  static const std::string why = [] {
    std::string out;
    // On a thread of its own, so that the test leaves no thread of ours in a namespace.
    std::thread([&] {
      try {
        GameNetwork probe;
      } catch (const std::exception& e) {
        out = e.what();
      }
    }).join();
    return out;
  }();
  return why;
}

}  // namespace arena
