#pragma once
// A lock for critical sections of a microsecond or so, taken many thousand times a second by a
// few threads: a waiter spins instead of sleeping in the kernel (a futex sleep and wake-up would
// cost more than the section), and yields its core when the holder does not let go soon (the
// holder may have been preempted, or the threads may share one core).
#include <atomic>
#include <thread>

namespace arena {

class SpinLock {
 public:
  void lock() {
    for (int spins = 0; locked_.exchange(true, std::memory_order_acquire);) {
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins > kSpinsBeforeYielding)
          std::this_thread::yield();
        else
          pause();
      }
    }
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  static constexpr int kSpinsBeforeYielding = 1000;  // a few microseconds
  // Tells the core that this is a spin-wait (it saves power and lets the holder's hyperthread
  // run faster); a no-op where there is no such instruction.
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  std::atomic<bool> locked_{false};
};

}  // namespace arena
