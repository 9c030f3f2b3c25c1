#pragma once
// Who plays in a tournament. One participant per line, in a file or on the command line:
//
//   # comments and blank lines are ignored
//   deep:    engine depth=4          the built-in engine searching to a fixed depth
//   quick:   engine time=200         the engine answering within 200 ms (default: the move time)
//   greedy:  greedy                  one-ply greedy player
//   rnd:     random                  uniformly random legal moves
//   ref2:    soccer-ref 2            a Paper Soccer reference bot at level 0, 1 or 2
//   alice:   command ./alice --fast  an external program, run by /bin/sh; arena appends the
//                                    game's own arguments (for the line protocol: host and port)
//   bob:     dir=/srv/bob memory=1024 command java -jar bob.jar
//                                    options of the agent's sandbox come first: its folder (its
//                                    command runs there), memory in MB, cpus, processes, log MB
//
// "NAME:" may be left out; the name is then made from the kind ("random", "engine-200ms", ...)
// and made unique. See docs/tournament.md.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"

namespace arena::tournament {

enum class AgentKind { Engine, Greedy, Random, SoccerRef, Command };

struct Participant {
  std::string name;
  AgentKind kind = AgentKind::Random;
  int time_ms = 0;      // engine: answer within this (0: the event's move time)
  int depth = 0;        // engine: fixed search depth (0: use the time)
  int level = 0;        // soccer-ref: 0, 1 or 2; engine: level=N (0: full strength)
  int threads = 1;      // engine: search threads (give it as many cpus=)
  std::string command;  // command: the shell command
  std::string spec;     // the line as given (without the name), kept in the journal
  // Its sandbox: its own folder (empty: the event's working directory) and limits of its own.
  std::filesystem::path dir;
  std::optional<std::uint64_t> memory_bytes;
  std::optional<int> cpus;
  std::optional<int> max_processes;
  std::optional<std::uint64_t> log_bytes;
};

inline constexpr std::size_t kMaxSpecBytes = 4096;
inline constexpr std::size_t kMaxParticipants = 256;
inline constexpr std::size_t kMaxNameBytes = 40;

std::string_view agent_kind_name(AgentKind k);

// One participant from a line ("NAME: SPEC" or "SPEC"); the name may be empty if none was given.
Parsed<Participant> parse_participant(std::string_view line);

// The participants of a file, with errors naming the line: "FILE:3: unknown agent kind 'foo'".
// Throws std::runtime_error.
std::vector<Participant> read_participants_file(const std::filesystem::path& path);

// Gives names to unnamed participants and checks the list: at least two, at most
// kMaxParticipants, names unique. Throws std::runtime_error.
void finalize_participants(std::vector<Participant>& participants);

}  // namespace arena::tournament
