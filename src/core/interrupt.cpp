#include "core/interrupt.hpp"

#include <signal.h>

namespace fhn {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_interrupt(int) { g_interrupted = 1; }

}  // namespace

struct InterruptGuard::Saved {
  struct sigaction int_ {}, term_ {}, usr1_ {}, xfsz_ {};
};

InterruptGuard::InterruptGuard() : saved_(new Saved) {
  g_interrupted = 0;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &saved_->int_);
  sigaction(SIGTERM, &action, &saved_->term_);
  sigaction(SIGUSR1, &action, &saved_->usr1_);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGXFSZ, &ignore, &saved_->xfsz_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &saved_->int_, nullptr);
  sigaction(SIGTERM, &saved_->term_, nullptr);
  sigaction(SIGUSR1, &saved_->usr1_, nullptr);
  sigaction(SIGXFSZ, &saved_->xfsz_, nullptr);
  delete saved_;
}

const volatile std::sig_atomic_t* InterruptGuard::flag() const { return &g_interrupted; }

}  // namespace fhn
