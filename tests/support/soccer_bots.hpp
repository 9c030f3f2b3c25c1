#pragma once
// Scripted Paper Soccer bots for referee tests: a small shell script that answers every S or M
// with the next line of an answers file (in the bot's own frame), writes down every line it
// receives, and misbehaves on request. Answer lines that start with '@' are misbehaviours:
//   @sleep         prints nothing, sleeps          @spin   prints nothing, burns CPU
//   @huge          prints 3 MB without a newline   @crash  kills itself with SIGSEGV
//   @exit          exits without a word            @close-stdin <line>  closes stdin, prints
//   <line>, sleeps
// A third argument changes the whole bot: `ignore-f` keeps running after F, `fork` leaves three
// sleeping processes behind (one in the group, one in a new session, one grandchild) and writes
// their pids to <received>.pids.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace arena::testing {

inline constexpr const char* kScriptedBot = R"SH(
answers="$1"; received="$2"; mode="$3"; n=0
: > "$received"
if [ "$mode" = fork ]; then
  sleep 1000 & echo $! >> "$received.pids"
  setsid sleep 1000 & echo $! >> "$received.pids"
  ( sleep 1000 & echo $! >> "$received.pids"; wait ) &
fi
while IFS= read -r msg; do
  printf '%s\n' "$msg" >> "$received"
  case "$msg" in
    F) if [ "$mode" = ignore-f ]; then trap '' TERM INT HUP; while :; do sleep 1; done; fi
       exit 0 ;;
  esac
  n=$((n+1)); line=$(sed -n "${n}p" "$answers")
  case "$line" in
    "" | @exit) exit 0 ;;
    @sleep) sleep 1000 ;;
    @spin) while :; do :; done ;;
    @huge) head -c 3000000 /dev/zero | tr '\0' '7'; sleep 1000 ;;
    @crash) kill -SEGV $$ ;;
    @close-stdin*) exec 0<&-; printf '%s\n' "${line#@close-stdin }"; sleep 1000 ;;
    *) printf '%s\n' "$line" ;;
  esac
done
)SH";

// Writes the script and a bot's answers into `dir`; gives the shell command that runs it.
inline std::string scripted_bot(const std::filesystem::path& dir, const std::string& name,
                                const std::vector<std::string>& answers,
                                const std::string& mode = "") {
  const auto script = dir / "scripted_bot.sh";
  if (!std::filesystem::exists(script)) std::ofstream(script) << kScriptedBot;
  std::ofstream out(dir / (name + ".answers"));
  for (const auto& a : answers) out << a << "\n";
  // exec: the script is the referee's child itself, not a grandchild behind `sh -c`.
  return "exec /bin/sh '" + script.string() + "' '" + (dir / (name + ".answers")).string() + "' '" +
         (dir / (name + ".received")).string() + "' " + mode;
}

}  // namespace arena::testing
