#pragma once
// Exceptions across an OpenMP parallel loop. An exception may not leave a parallel region: one
// that does calls std::terminate, and the process aborts (SIGABRT, no message, no summary). Each
// iteration's body runs under FirstError::guard, which keeps the exception of the lowest
// iteration; after the region, rethrow() raises it, so the caller reports the error the loop
// would have met first had it run in order.
#include <exception>
#include <mutex>

#include "core/types.hpp"

namespace fhn {

class FirstError {
 public:
  template <class Body>
  void guard(index_t iteration, Body&& body) noexcept {
    try {
      body();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!error_ || iteration < iteration_) {
        error_ = std::current_exception();
        iteration_ = iteration;
      }
    }
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  index_t iteration_ = 0;
};

}  // namespace fhn
