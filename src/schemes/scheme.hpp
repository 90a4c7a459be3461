#pragma once
// A time-stepping scheme owns the solution state (on the host or a device) and advances it.
// The time loop only ever sees this interface.
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "model/problem.hpp"

namespace fhn {

// A host copy of the state, filled when output is due.
struct Snapshot {
  index_t step = 0;
  real t = 0.0;
  std::vector<real> x;
  std::vector<real> v;
  std::vector<real> w;
};

class Scheme {
 public:
  virtual ~Scheme() = default;
  virtual std::string name() const = 0;
  virtual index_t node_count() const = 0;
  // Steps taken so far; the state is at t = steps_done() * dt.
  virtual index_t steps_done() const = 0;
  virtual void advance(index_t steps) = 0;
  virtual void snapshot(Snapshot& out) const = 0;
  // Index of the first node whose v or w is NaN or infinite, or -1 when all are finite.
  virtual index_t first_non_finite() const = 0;
};

std::unique_ptr<Scheme> make_scheme(const Config& config, const Problem& problem);

}  // namespace fhn
