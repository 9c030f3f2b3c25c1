#include "tournament/event_status.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/kernel_file.hpp"
#include "games/registry.hpp"
#include "tournament/journal.hpp"
#include "tournament/schedule.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;

std::string ago(fs::file_time_type when) {
  const auto age =
      std::chrono::duration_cast<std::chrono::seconds>(fs::file_time_type::clock::now() - when)
          .count();
  if (age < 120) return fmt::format("{} s ago", std::max<long long>(age, 0));
  if (age < 7200) return fmt::format("{} min ago", age / 60);
  return fmt::format("{} h ago", age / 3600);
}

std::string this_host() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

// Whether process `pid` of this host still runs arena (a pid may have been reused).
bool runs_here(long pid) {
  if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) return false;
  const std::string cmdline = read_kernel_file(fmt::format("/proc/{}/cmdline", pid));
  return cmdline.find("tournament") != std::string::npos;
}

std::optional<int> planned_shards(const fs::path& dir) {
  std::ifstream in(planned_shards_path(dir));
  if (!in) return std::nullopt;
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("shards") ||
      !j["shards"].is_number_integer())
    return std::nullopt;
  const int n = j["shards"].get<int>();
  if (n < 1 || n > kMaxShards) return std::nullopt;
  return n;
}

ShardStatus shard_status(const fs::path& dir, Shard shard, int done, int total,
                         std::chrono::seconds stale) {
  ShardStatus st{shard, done, total, ShardState::NotStarted, ""};
  const auto life = read_shard_life(shard_alive_path(dir, shard));
  if (done == total) {
    st.state = ShardState::Finished;
    if (life) st.detail = fmt::format("on {}", life->host);
    return st;
  }
  if (!life) return st;
  std::string who = fmt::format("{} pid {}", life->host, life->pid);
  if (!life->slurm_job.empty()) who += ", Slurm job " + life->slurm_job;
  if (life->state == "stopped") {
    st.state = ShardState::Stopped;
    st.detail = fmt::format("{} ({}), {}", life->detail.empty() ? "stopped" : life->detail, who,
                            ago(life->last_sign));
    return st;
  }
  const bool stale_sign = fs::file_time_type::clock::now() - life->last_sign > stale;
  const bool gone_here = life->host == this_host() && !runs_here(life->pid);
  if (life->state == "playing" && !stale_sign && !gone_here) {
    st.state = ShardState::Playing;
    st.detail = fmt::format("{}, last sign of life {}", who, ago(life->last_sign));
    return st;
  }
  st.state = ShardState::LooksDead;
  st.detail = gone_here ? fmt::format("its process is gone ({})", who)
                        : fmt::format("no sign of life since {} ({})", ago(life->last_sign), who);
  return st;
}

}  // namespace

std::string_view shard_state_key(ShardState s) {
  switch (s) {
    case ShardState::NotStarted:
      return "not started";
    case ShardState::Playing:
      return "playing";
    case ShardState::Finished:
      return "finished";
    case ShardState::Stopped:
      return "stopped";
    case ShardState::LooksDead:
      return "looks dead";
  }
  return "?";
}

fs::path planned_shards_path(const fs::path& dir) {
  return dir / kClusterFolder / "shards.json";
}

EventStatus event_status(const fs::path& dir, std::optional<int> shards,
                         std::chrono::seconds stale) {
  const EventJournals all = read_event_journals(dir);
  EventStatus st;
  const GameInfo* game = find_game(all.settings.game);
  st.game_title = game ? std::string(game->title) : all.settings.game;
  const auto schedule =
      double_round_robin(static_cast<int>(all.settings.participants.size()), all.settings.seed);
  st.total = static_cast<int>(schedule.size());
  st.done = static_cast<int>(all.games.size());
  st.duplicates = all.duplicates;
  st.unsharded_games =
      all.games_per_journal.count(kJournalFile) ? all.games_per_journal.at(kJournalFile) : 0;
  if (shards) {
    st.shard_count = *shards;
  } else if (!all.shard_journals.empty()) {
    // The count most shards were started with (another count is a mistake shown below).
    std::map<int, int> counts;
    for (const Shard& s : all.shard_journals) ++counts[s.count];
    st.shard_count = std::max_element(counts.begin(), counts.end(), [](auto& a, auto& b) {
                       return a.second < b.second;
                     })->first;
  } else if (const auto planned = planned_shards(dir)) {
    st.shard_count = *planned;
  }
  for (int k = 1; k <= st.shard_count; ++k) {
    const Shard shard{k, st.shard_count};
    int done = 0, total = 0;
    for (const auto& p : schedule) total += shard.owns(p.index);
    for (const auto& g : all.games) done += shard.owns(g.index);
    st.shards.push_back(shard_status(dir, shard, done, total, stale));
  }
  return st;
}

std::string status_text(const EventStatus& s, const fs::path& dir) {
  std::string out = fmt::format("{}: {}/{} games played ({:.0f}%)\n", s.game_title, s.done, s.total,
                                s.total ? 100.0 * s.done / s.total : 100.0);
  if (s.shard_count == 0) {
    out += "Not played in shards.\n";
    return out;
  }
  int dead = 0, waiting = 0;
  out += fmt::format("{} shards:\n", s.shard_count);
  for (const ShardStatus& sh : s.shards) {
    out += fmt::format("  shard {:>9}  {:>5}/{:<5} {:<12}{}\n", sh.shard.label(), sh.done, sh.total,
                       shard_state_key(sh.state), sh.detail);
    dead += sh.state == ShardState::LooksDead || sh.state == ShardState::Stopped;
    waiting += sh.state == ShardState::NotStarted;
  }
  if (s.unsharded_games > 0)
    out += fmt::format("{} games were played without shards (journal.jsonl).\n", s.unsharded_games);
  if (s.duplicates > 0)
    out += fmt::format(
        "warning: {} games are in more than one journal (shards of different counts played "
        "at once); each counts once\n",
        s.duplicates);
  if (dead > 0) {
    std::string list;
    for (const ShardStatus& sh : s.shards)
      if (sh.state == ShardState::LooksDead || sh.state == ShardState::Stopped) {
        if (!list.empty()) list += ',';
        list += std::to_string(sh.shard.index);
      }
    out += fmt::format(
        "{} shards stopped or look dead. Play them again (each plays only its missing games): "
        "sbatch --array={} {}, or arena tournament play {} --shard K/{}\n",
        dead, list, (dir / kClusterFolder / "slurm.sbatch").string(), dir.string(), s.shard_count);
  }
  if (waiting > 0) out += fmt::format("{} shards have not started.\n", waiting);
  if (s.done == s.total)
    out += fmt::format("Every game is played; arena tournament report {} writes the standings.\n",
                       dir.string());
  return out;
}

}  // namespace arena::tournament
