#pragma once
// Stopping cleanly on a signal: fhn run, fhn sweep and fhn converge poll a flag that SIGINT,
// SIGTERM and SIGUSR1 set, and stop with InterruptedError (exit code 130) after writing what they
// have (docs/ARCHITECTURE.md section 5).
#include <csignal>

namespace fhn {

// While alive: SIGINT, SIGTERM and SIGUSR1 set the flag (a second signal acts as usual: the
// handlers reset themselves), and SIGXFSZ is ignored so that exceeding the file size limit
// (ulimit -f) is a failed write, reported, rather than a killed process. SIGUSR1 is the one
// signal that reaches the ranks of a distributed run as it was sent: Open MPI's mpirun forwards
// it, whereas it turns SIGINT into SIGTERM to the ranks and exits 1 itself whatever they return
// (README.md, "On several ranks"). One guard at a time: the flag is the process's.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  const volatile std::sig_atomic_t* flag() const;
  bool interrupted() const { return *flag() != 0; }

 private:
  struct Saved;
  Saved* saved_;
};

}  // namespace fhn
