#include "sandbox/agent_start_check.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "sandbox/agent_view.hpp"
#include "sandbox/shell_words.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;

enum Want { Read = 4, Run = 1, ReadRun = 5 };

std::string owner_name(uid_t uid) {
  const passwd* pw = ::getpwuid(uid);
  return pw ? pw->pw_name : std::to_string(uid);
}

// Who runs the agent: the agents' user when arena drops to it (as root), else arena's own user.
class AgentUser {
 public:
  explicit AgentUser(const SandboxPlan& plan)
      : other_(plan.uses(Protection::User) && plan.machine.root),
        uid_(plan.machine.agent_uid),
        gid_(plan.machine.agent_gid),
        name_(other_ ? plan.machine.agent_user : owner_name(::geteuid())) {}

  bool may(const fs::path& p, Want want) const {
    const int mode = ((want & Read) ? R_OK : 0) | ((want & Run) ? X_OK : 0);
    if (!other_) return ::faccessat(AT_FDCWD, p.c_str(), mode, AT_EACCESS) == 0;
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return false;
    // Its groups are cleared (setpriv --clear-groups): owner, its own group, or others.
    const unsigned bits = st.st_uid == uid_   ? (st.st_mode >> 6) & 7u
                          : st.st_gid == gid_ ? (st.st_mode >> 3) & 7u
                                              : st.st_mode & 7u;
    return (bits & static_cast<unsigned>(want)) == static_cast<unsigned>(want);
  }

  // "/x/bot: the agents' user nobody cannot read it (mode 0700, owner root): ..."
  std::string denied(const fs::path& p, Want want, bool folder) const {
    struct stat st {};
    ::stat(p.c_str(), &st);
    const char* verb = folder ? (want == Run ? "pass through it" : "list and enter it")
                              : (want == Run    ? "run it"
                                 : want == Read ? "read it"
                                                : "read and run it");
    // A program gets both: what the convention is, and what a script needs.
    const std::string bits = want == Read ? "r" : want == Run && folder ? "x" : "rx";
    const std::string about =
        fmt::format("{}{}: {} {} cannot {} (mode {:04o}, owner {})", folder ? "the folder " : "",
                    p.string(), other_ ? "the agents' user" : "the user", name_, verb,
                    st.st_mode & 07777, owner_name(st.st_uid));
    if (other_)
      return about + fmt::format(
                         "; agents run as {} when arena runs as root: allow it with `chmod o+{} "
                         "{}`, or run without the sandbox: --sandbox off",
                         name_, bits, p.string());
    return about + fmt::format("; allow it with `chmod u+{} {}`", bits, p.string());
  }

 private:
  bool other_;
  uid_t uid_;
  gid_t gid_;
  std::string name_;
};

bool is_elf(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

class StartCheck {
 public:
  StartCheck(const SandboxPlan& plan, const AgentJailSpec& spec, const std::string& command)
      : files_(plan.uses(Protection::Files)),
        user_(plan),
        own_(resolved_path(spec.own_dir.empty() ? fs::current_path() : spec.own_dir)),
        command_(command),
        view_(agent_view(spec, command)) {}

  std::string problem() const {
    std::error_code ec;
    if (!fs::is_directory(own_, ec))
      return fmt::format("its folder {} does not exist or is not a folder", own_.string());
    if (std::string p = reachable(own_, Run, true); !p.empty()) return p;
    fs::path program;
    if (const auto word = command_program(shell_words(command_))) {
      const auto found = find_program(*word);
      if (!found.error.empty()) return found.error;
      program = found.path;
      if (fs::is_directory(program, ec))
        return fmt::format("{} is a folder, not a program", program.string());
      // A binary needs only x; a script is read by its interpreter (or by sh).
      if (std::string p = reachable(program, is_elf(program) ? Run : ReadRun, false); !p.empty())
        return p;
    }
    for (const fs::path& named : named_paths(command_, own_)) {
      const fs::path real = resolved_path(named);
      if (real == program || is_hidden(view_, real) || path_within(real, "/proc") ||
          path_within(real, "/dev"))
        continue;  // hidden places stay hidden: the sandbox's rule, not a fault of the command
      const bool folder = fs::is_directory(real, ec);
      if (std::string p = reachable(real, folder ? ReadRun : Read, folder); !p.empty()) return p;
    }
    return {};
  }

 private:
  bool files_;
  AgentUser user_;
  fs::path own_;
  std::string command_;
  AgentView view_;

  struct Found {
    fs::path path;
    std::string error;
  };

  // The program as the shell finds it: a path from the agent's folder, or on its PATH.
  Found find_program(const std::string& word) const {
    std::error_code ec;
    if (word.find('/') != std::string::npos) {
      const fs::path p = (fs::path(word).is_absolute() ? fs::path(word) : own_ / word);
      if (!fs::exists(p, ec))
        return {{}, fmt::format("its program {} does not exist", p.lexically_normal().string())};
      return {resolved_path(p), {}};
    }
    const char* host_path = std::getenv("PATH");
    const std::string path = files_ ? kAgentPath : (host_path ? host_path : "/usr/bin:/bin");
    std::size_t start = 0;
    while (start <= path.size()) {
      const auto end = std::min(path.find(':', start), path.size());
      const fs::path dir = path.substr(start, end - start);
      if (!dir.empty() && fs::is_regular_file(dir / word, ec))
        return {resolved_path(dir / word), {}};
      start = end + 1;
    }
    return {{},
            fmt::format("its program '{}' is not on the agents' PATH ({}); give its full path",
                        word, path)};
  }

  // Whether the agent sees `real` and may use it as `want`, with every folder on the way.
  std::string reachable(const fs::path& real, Want want, bool folder) const {
    fs::path start = real.root_path();
    if (files_) {
      if (is_hidden(view_, real))
        return fmt::format(
            "{} lies in a folder agents never see (the event folder or another participant's "
            "dir=)",
            real.string());
      const auto through = shown_through(view_, real);
      if (!through)
        return fmt::format("{} is outside what the agent sees in its sandbox", real.string());
      start = *through;  // the sandbox makes the folders above it passable
    }
    fs::path dir = start;
    for (const auto& part : real.lexically_relative(start)) {
      if (part == ".") break;
      if (!user_.may(dir, Run)) return user_.denied(dir, Run, true);
      dir /= part;
    }
    if (!user_.may(real, want)) return user_.denied(real, want, folder);
    return {};
  }
};

}  // namespace

std::string agent_start_problem(const SandboxPlan& plan, const AgentJailSpec& spec,
                                const std::string& command) {
  return StartCheck(plan, spec, command).problem();
}

}  // namespace arena
