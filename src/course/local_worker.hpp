#pragma once
// The server's own worker: `arena course worker` as a child process talking to the server over
// HTTP like any other machine's, so the games the server plays itself go through the same code,
// leases and sandbox as a cluster's. It dies with the server (ARENA_PARENT_PID) and is started
// again if it stops.
#include <atomic>
#include <filesystem>
#include <string>
#include <thread>

namespace arena::course {

struct LocalWorkerOptions {
  std::filesystem::path arena_binary;
  std::string url;    // the server, e.g. http://127.0.0.1:8080/
  std::string token;  // its worker token
  std::filesystem::path cache_dir;
  std::filesystem::path log_file;
  int games = 0;           // games at once; 0: as the worker decides (its cores)
  std::string extra_args;  // more options (shell words), e.g. its check options
};

class LocalWorker {
 public:
  explicit LocalWorker(LocalWorkerOptions options);
  ~LocalWorker();
  LocalWorker(const LocalWorker&) = delete;
  LocalWorker& operator=(const LocalWorker&) = delete;

 private:
  LocalWorkerOptions options_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;

  void loop();
};

}  // namespace arena::course
