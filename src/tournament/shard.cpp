#include "tournament/shard.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/text.hpp"
#include "referee/record.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;

std::string file_stem(Shard s) {
  return fmt::format("{:04}-of-{:04}", s.index, s.count);
}

std::string host_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

// "JOB_TASK" of the Slurm array task (or job) this process runs in.
std::string slurm_job() {
  const char* array = std::getenv("SLURM_ARRAY_JOB_ID");
  const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
  if (array && task) return fmt::format("{}_{}", array, task);
  const char* job = std::getenv("SLURM_JOB_ID");
  return job ? job : "";
}

std::string life_json(std::string_view state, std::string_view detail) {
  nlohmann::json j = {{"host", host_name()},
                      {"pid", static_cast<long>(::getpid())},
                      {"state", state},
                      {"updated", utc_now_iso8601()}};
  if (const auto job = slurm_job(); !job.empty()) j["slurm_job"] = job;
  if (!detail.empty()) j["detail"] = detail;
  return j.dump() + "\n";
}

// Set once the shard is stopped by a signal: a late heartbeat must not say "playing" again.
std::atomic<bool> stopped_by_signal{false};

void write_life(const fs::path& file, std::string_view state, std::string_view detail) {
  if (state == "playing" && stopped_by_signal) return;
  try {
    write_file_atomically(file, life_json(state, detail), false);
  } catch (const std::exception&) {
    // A missed heartbeat only makes the shard look older to `status`; the games go on.
  }
}

std::optional<int> number(std::string_view s) {
  int v = 0;
  if (!parse_number(s, 0, std::numeric_limits<int>::max(), v)) return std::nullopt;
  return v;
}

}  // namespace

std::string Shard::label() const {
  return fmt::format("{}/{}", index, count);
}

Parsed<Shard> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos)
    return Parsed<Shard>::fail(fmt::format("'{}' is not K/N (e.g. 3/8)", text));
  const auto k = number(text.substr(0, slash)), n = number(text.substr(slash + 1));
  if (!k || !n) return Parsed<Shard>::fail(fmt::format("'{}' is not K/N (e.g. 3/8)", text));
  if (*n < 1 || *n > kMaxShards)
    return Parsed<Shard>::fail(fmt::format("shard count {} is not in 1..{}", *n, kMaxShards));
  if (*k < 1 || *k > *n)
    return Parsed<Shard>::fail(
        fmt::format("shard {} of {} does not exist: shards are numbered 1..{}", *k, *n, *n));
  return Parsed<Shard>::ok(Shard{*k, *n});
}

fs::path shard_journal_path(const fs::path& event_dir, Shard s) {
  return event_dir / kShardsFolder / (file_stem(s) + ".jsonl");
}

fs::path shard_alive_path(const fs::path& event_dir, Shard s) {
  return event_dir / kShardsFolder / (file_stem(s) + ".alive");
}

std::optional<Shard> shard_of_file(const fs::path& file) {
  const std::string stem = file.stem().string();
  if (stem.size() != 12 || stem.substr(4, 4) != "-of-") return std::nullopt;
  const auto k = number(stem.substr(0, 4)), n = number(stem.substr(8));
  if (!k || !n || *n < 1 || *k < 1 || *k > *n) return std::nullopt;
  return Shard{*k, *n};
}

std::optional<ShardLife> read_shard_life(const fs::path& alive_file) {
  std::error_code ec;
  const auto when = fs::last_write_time(alive_file, ec);
  if (ec) return std::nullopt;
  std::ifstream in(alive_file);
  std::string text;
  std::getline(in, text);
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  ShardLife life;
  life.host = j.value("host", "");
  life.pid = j.value("pid", 0L);
  life.slurm_job = j.value("slurm_job", "");
  life.state = j.value("state", "");
  life.detail = j.value("detail", "");
  life.last_sign = when;
  return life;
}

struct ShardHeartbeat::Impl {
  fs::path file;
  std::chrono::seconds interval;
  std::mutex mutex;
  std::condition_variable wake;
  bool stop = false;
  std::thread thread;
};

ShardHeartbeat::ShardHeartbeat(fs::path alive_file, std::chrono::seconds interval)
    : impl_(std::make_unique<Impl>()) {
  impl_->file = std::move(alive_file);
  impl_->interval = interval;
  fs::create_directories(impl_->file.parent_path());
  write_life(impl_->file, "playing", "");
  impl_->thread = std::thread([impl = impl_.get()] {
    std::unique_lock lock(impl->mutex);
    while (!impl->wake.wait_for(lock, impl->interval, [impl] { return impl->stop; }))
      write_life(impl->file, "playing", "");
  });
}

ShardHeartbeat::~ShardHeartbeat() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stop = true;
  }
  impl_->wake.notify_all();
  if (impl_->thread.joinable()) impl_->thread.join();
}

void ShardHeartbeat::finish(std::string_view state, std::string_view detail) {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stop = true;
  }
  impl_->wake.notify_all();
  if (impl_->thread.joinable()) impl_->thread.join();
  write_life(impl_->file, state, detail);
}

void mark_shard_stopped(const fs::path& alive_file, std::string_view detail) {
  stopped_by_signal = true;
  write_life(alive_file, "stopped", detail);
}

}  // namespace arena::tournament
