// A hostile tournament agent for the sandbox tests. Each mode misbehaves in one way, and each is
// bounded by itself (how much, how many, how long), so that it cannot harm the machine even where
// the protection under test is missing. It never plays: the game's arguments (host, port) that
// arena appends are ignored.
//
//   hostile_agent hog MB              touches MB of memory, then sleeps
//   hostile_agent forkbomb            forks up to 3000 sleeping children, then sleeps
//   hostile_agent spin THREADS SECS   keeps THREADS threads busy for SECS seconds
//   hostile_agent print MB            prints MB of text, then exits
//   hostile_agent files SECRET DIR    tries to read the file SECRET, to write into DIR and into
//                                     its own folder; prints what happened
//   hostile_agent net PORT            tries 127.0.0.1:PORT and a non-loopback address; prints
//                                     what happened
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kMiB = 1024 * 1024;

void sleep_seconds(int s) {
  std::this_thread::sleep_for(std::chrono::seconds(s));
}

int hog(long mb) {
  std::vector<char*> blocks;
  for (long done = 0; done < mb; done += 64) {
    char* block = static_cast<char*>(std::malloc(64 * kMiB));
    if (!block) break;
    std::memset(block, 1, 64 * kMiB);  // touched: counted by the kernel
    blocks.push_back(block);
  }
  std::printf("allocated %zu MB\n", blocks.size() * 64);
  std::fflush(stdout);
  sleep_seconds(60);
  return 0;
}

int forkbomb() {
  int made = 0, refused = 0;
  for (int i = 0; i < 3000; ++i) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::alarm(30);  // every child ends by itself
      ::pause();
      ::_exit(0);
    }
    if (pid > 0)
      ++made;
    else
      ++refused;
  }
  std::printf("forked %d, refused %d\n", made, refused);
  std::fflush(stdout);
  sleep_seconds(60);
  return 0;
}

int spin(int threads, int seconds) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i)
    workers.emplace_back([&] {
      volatile unsigned long x = 0;
      while (!stop.load(std::memory_order_relaxed)) x = x + 1;
    });
  sleep_seconds(seconds);
  stop = true;
  for (auto& t : workers) t.join();
  return 0;
}

int print(long mb) {
  static char buffer[1 << 20];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);  // big writes: the pipe, not us, is tested
  std::string line(1023, 'x');
  line += '\n';
  for (long i = 0; i < mb * 1024; ++i)
    if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size()) break;
  std::fflush(stdout);
  std::printf("END-OF-OUTPUT\n");
  std::fflush(stdout);
  return 0;
}

int files(const char* secret, const char* dir) {
  std::ifstream in(secret);
  std::string content;
  if (in && std::getline(in, content))
    std::printf("read-secret: %s\n", content.c_str());
  else
    std::printf("read-secret: failed\n");
  const std::string target = std::string(dir) + "/pwned";
  const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::printf("write-event: %s\n", fd >= 0 ? "written" : std::strerror(errno));
  if (fd >= 0) ::close(fd);
  const int own = ::open("own-folder-file", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::printf("write-own: %s\n", own >= 0 ? "written" : std::strerror(errno));
  if (own >= 0) ::close(own);
  const char* home = std::getenv("HOME");
  const std::string scratch = std::string(home ? home : "/tmp") + "/scratch-file";
  const int s = ::open(scratch.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::printf("write-scratch: %s\n", s >= 0 ? "written" : std::strerror(errno));
  if (s >= 0) ::close(s);
  std::fflush(stdout);
  sleep_seconds(60);
  return 0;
}

// "connected" or why not, within a second.
std::string try_connect(const char* address, int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) return std::strerror(errno);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, address, &a.sin_addr);
  std::string result;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    result = "connected";
  } else if (errno != EINPROGRESS) {
    result = std::strerror(errno);
  } else {
    pollfd p{fd, POLLOUT, 0};
    if (::poll(&p, 1, 1000) <= 0) {
      result = "timed out";
    } else {
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      result = err == 0 ? "connected" : std::strerror(err);
    }
  }
  ::close(fd);
  return result;
}

int net(int port) {
  std::printf("other-port: %s\n", try_connect("127.0.0.1", port).c_str());
  // TEST-NET-1 (RFC 5737): never a real host; on a machine with a route it times out.
  std::printf("outside: %s\n", try_connect("192.0.2.1", 80).c_str());
  std::fflush(stdout);
  sleep_seconds(60);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "hog" && argc > 2) return hog(std::atol(argv[2]));
  if (mode == "forkbomb") return forkbomb();
  if (mode == "spin" && argc > 3) return spin(std::atoi(argv[2]), std::atoi(argv[3]));
  if (mode == "print" && argc > 2) return print(std::atol(argv[2]));
  if (mode == "files" && argc > 3) return files(argv[2], argv[3]);
  if (mode == "net" && argc > 2) return net(std::atoi(argv[2]));
  std::fprintf(stderr,
               "usage: hostile_agent hog MB | forkbomb | spin N SECS | print MB | "
               "files SECRET DIR | net PORT\n");
  return 2;
}
