#pragma once
// Newton diagnostics: every iteration can be logged (newton.csv), and each scheme that uses
// Newton keeps running statistics for summary.json.
#include <cmath>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/error.hpp"
#include "core/newton_log.hpp"

namespace fhn {

class NewtonStats {
 public:
  // Records one converged step from its sequence of ||du||_inf.
  void add_step(const std::vector<real>& du_norms);

  index_t steps() const { return steps_; }
  index_t max_iterations() const { return max_iterations_; }
  real mean_iterations() const {
    return steps_ > 0 ? static_cast<real>(iterations_) / static_cast<real>(steps_) : 0.0;
  }
  // Median over steps of the q-order estimate log(d_{k+1}/d_k) / log(d_k/d_{k-1}) from
  // successive updates above round-off; 0 when no step had three such updates.
  real convergence_order() const;
  index_t order_samples() const { return static_cast<index_t>(orders_.size()); }

 private:
  index_t steps_ = 0;
  index_t iterations_ = 0;
  index_t max_iterations_ = 0;
  std::vector<real> orders_;  // at most kMaxSamples, the first ones
};

// One step's Newton iteration, as every scheme that iterates records it (docs/ARCHITECTURE.md
// section 4): each iteration's norms (agreed over the ranks) go to the log and the history; at
// the end the step either converged (its ||du|| history goes to the statistics) or fails with its
// history. The stopping rule is the same everywhere: go on while ||du||_inf >= tolerance, the
// norms are finite and fewer than max_iterations were taken.
class NewtonStep {
 public:
  // `stage`: which Newton solve of the step (ADI's two reaction half-steps), for the log.
  NewtonStep(const NewtonSpec& spec, index_t step, real t, real dt, NewtonLog* log,
             NewtonStats& stats, int stage = 0);

  // Records the next iteration; returns whether to iterate again.
  bool record(real du_inf, real residual_inf);
  bool converged() const;
  index_t iterations() const { return static_cast<index_t>(du_.size()); }

  // The end of the step, converged by the stopping rule (or, where the backend decides per node
  // or on the device, as `converged` says): the statistics, or the failure thrown.
  void finish() { finish(converged()); }
  void finish(bool converged);

  // The errors of this step: not converged, with its history (what finish throws); its Newton
  // matrix refused by the solver in the iteration under way (`why`: the solver's message), or not
  // diagonally dominant at `row` (GPU solvers).
  NumericalError failure() const;
  NumericalError solve_failure(const std::string& why) const;
  NumericalError not_dominant(index_t row) const;

 private:
  const NewtonSpec& spec_;
  index_t step_;
  real t_, dt_;
  NewtonLog* log_;
  NewtonStats& stats_;
  int stage_;
  std::vector<real> du_, residual_;
};

// The Newton skeleton of the schemes that drive their iterations from the host (the CPU
// Crank-Nicolson scheme, a CUDA slab): iterate(iteration) assembles F and J at the iterate,
// solves J du = F, updates the iterate and returns {||du||_inf, ||F||_inf} agreed over the ranks;
// the backend's kernels live in `iterate`, the decisions here.
struct NewtonNorms {
  real du_inf, residual_inf;
};

// A norm ||.||_inf accumulated node by node: max(largest, |x|), a NaN kept once seen
// (std::max(largest, NaN) is largest: a node whose residual or update is not a number, e.g. a
// Newton recovery of w+ that found no root, trapezoidal_w_point.hpp, would be hidden from the
// stopping rule's finiteness test and its state accepted).
inline real max_norm(real largest, real x) {
  const real size = std::abs(x);
  return std::isnan(size) || size > largest ? size : largest;
}
template <class Iterate>
void newton_iterate(NewtonStep& newton, Iterate&& iterate) {
  for (index_t iteration = 1;; ++iteration) {
    const NewtonNorms norms = iterate(iteration);
    if (!newton.record(norms.du_inf, norms.residual_inf)) break;
  }
  newton.finish();
}

}  // namespace fhn
