#include "tournament/live_record.hpp"

#include <fmt/format.h>

#include <chrono>
#include <system_error>

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;

// How often the referee's live record is looked at: a viewer polls about as often.
constexpr auto kPollInterval = std::chrono::milliseconds(200);
// The referee's work folder is small; a bound keeps a strange one from costing much.
constexpr int kMaxEntries = 64;

std::string describe_agent(const Participant& p) {
  return p.kind == AgentKind::Command ? p.command : "built-in " + p.spec;
}

// A file's identity for "has it changed": modification time and size.
std::string version_of(const fs::path& p) {
  std::error_code ec;
  const auto time = fs::last_write_time(p, ec);
  if (ec) return {};
  const auto size = fs::file_size(p, ec);
  if (ec) return {};
  return fmt::format("{}-{}", time.time_since_epoch().count(), size);
}

}  // namespace

void name_players(const MatchRequest& req, GameRecord& record) {
  for (Side side : {Side::White, Side::Black}) {
    const Participant& p = side == Side::White ? *req.white : *req.black;
    const std::string& address = record.player(side).address;
    record.player(side) = {p.name, describe_agent(p) + (address.empty() ? "" : " @ " + address)};
  }
}

LiveRecordMirror::LiveRecordMirror(const MatchRequest& request, fs::path work_dir)
    : request_(request),
      work_dir_(std::move(work_dir)),
      target_(fs::path(request.stem.string() + ".json")),
      thread_([this] { follow(); }) {}

LiveRecordMirror::~LiveRecordMirror() {
  stop();
}

void LiveRecordMirror::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void LiveRecordMirror::follow() {
  while (!stop_) {
    copy_once();
    for (int i = 0; i < 10 && !stop_; ++i) std::this_thread::sleep_for(kPollInterval / 10);
  }
}

void LiveRecordMirror::copy_once() {
  std::error_code ec;
  fs::path newest;
  fs::file_time_type newest_time{};
  int seen = 0;
  for (fs::recursive_directory_iterator it(work_dir_, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (++seen > kMaxEntries) break;
    std::error_code ec2;
    if (it->path().extension() != ".json" || !it->is_regular_file(ec2)) continue;
    const auto t = it->last_write_time(ec2);
    if (!ec2 && (newest.empty() || t > newest_time)) {
      newest = it->path();
      newest_time = t;
    }
  }
  if (newest.empty()) return;
  const std::string version = version_of(newest);
  if (version.empty() || version == last_version_) return;
  try {
    GameRecord r = read_record(newest);
    last_version_ = version;
    // The finished record is the caller's to write, with the runner's verdict.
    if (r.outcome != Outcome::Ongoing || r.reason != kInProgressReason) return;
    name_players(request_, r);
    write_live_record(target_, std::move(r));
  } catch (const std::exception&) {
    // Half-renamed or foreign: the next look will do.
  }
}

}  // namespace arena::tournament
