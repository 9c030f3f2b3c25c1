#pragma once
// A process's CPU time: what a referee that counts CPU time (Paper Soccer's) charges to a bot.
#include <sys/resource.h>
#include <time.h>

#include <chrono>

namespace arena {

// The user time in a getrusage report.
inline std::chrono::microseconds user_time(const rusage& usage) {
  return std::chrono::seconds(usage.ru_utime.tv_sec) +
         std::chrono::microseconds(usage.ru_utime.tv_usec);
}

// The process's CPU time, user and system, all threads together, to the nanosecond: never less
// than the user time a referee charges, and without the jumps of getrusage's user share (the
// kernel splits a precise total by sampled ticks, tens of ms apart from the referee's split).
inline std::chrono::nanoseconds process_cpu() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

}  // namespace arena
