#pragma once
// What Linux's /proc says about a group of processes: their user-CPU time and who they are, so a
// referee can charge a bot for every process it starts and end all of them after the game.
#include <sys/types.h>

#include <chrono>
#include <vector>

namespace arena {

// User-CPU time of the live (or not yet reaped) processes of a process group, each including the
// children it has reaped. Processes that have left the group are not counted.
std::chrono::microseconds group_user_cpu(pid_t pgid);

// The processes whose process group is `pgid`.
std::vector<pid_t> group_members(pid_t pgid);

// Our own child processes (including orphans adopted while we are a subreaper).
std::vector<pid_t> own_children();

// Makes this process adopt the orphans of its descendants (prctl PR_SET_CHILD_SUBREAPER), so that
// a bot's grandchild that leaves its process group can still be found and ended. Returns false
// where the system does not allow it.
bool become_subreaper();

// Kills (SIGKILL) and reaps every child of this process, including adopted orphans and the
// children they leave behind, until none is left or `budget` has passed. Call only when no other
// child of this process must survive.
void end_all_children(std::chrono::milliseconds budget);

}  // namespace arena
