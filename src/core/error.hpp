#pragma once
// Typed errors. Each category maps to one process exit code (docs/ARCHITECTURE.md section 5), so
// the command line can report what went wrong and callers can react without parsing messages.
#include <stdexcept>
#include <string>

namespace fhn {

enum class ExitCode : int {
  ok = 0,
  internal = 1,
  usage = 2,        // bad command line or bad configuration
  numerical = 3,    // NaN/Inf, Newton failure, loss of diagonal dominance
  io = 4,           // output cannot be created or written
  device = 5,       // CUDA/cuSPARSE failure, no device, out of device memory, not compiled
  interrupted = 130,
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

struct InternalError : Error {
  explicit InternalError(const std::string& what) : Error(ExitCode::internal, what) {}
};
// A ConfigError raised outside the loader names its key ("key: message"); the code that holds
// the Config puts the key's place in the file in front (Config::where).
struct ConfigError : Error {
  explicit ConfigError(const std::string& what) : Error(ExitCode::usage, what) {}
  ConfigError(const std::string& key, const std::string& message)
      : Error(ExitCode::usage, key + ": " + message), key_(key) {}
  const std::string& key() const { return key_; }  // empty: located already, or no key

 private:
  std::string key_;
};
struct NumericalError : Error {
  explicit NumericalError(const std::string& what) : Error(ExitCode::numerical, what) {}
};
struct IoError : Error {
  explicit IoError(const std::string& what) : Error(ExitCode::io, what) {}
};
struct InterruptedError : Error {
  explicit InterruptedError(const std::string& what) : Error(ExitCode::interrupted, what) {}
};
struct DeviceError : Error {
  explicit DeviceError(const std::string& what) : Error(ExitCode::device, what) {}
};

}  // namespace fhn

// Checked always: bad input or a broken precondition a user can trigger.
#define FHN_VERIFY(cond, ErrorType, msg) \
  do {                                   \
    if (!(cond)) throw ErrorType(msg);   \
  } while (0)

// Checked in debug builds only: internal invariants.
#ifdef NDEBUG
#define FHN_ASSERT(cond) ((void)0)
#else
#include <cassert>
#define FHN_ASSERT(cond) assert(cond)
#endif
