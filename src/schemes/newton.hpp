#pragma once
// Newton diagnostics: every iteration can be logged (newton.csv), and each scheme that uses
// Newton keeps running statistics for summary.json.
#include <vector>

#include "config/config.hpp"
#include "core/error.hpp"

namespace fhn {

struct NewtonIteration {
  index_t step = 0;       // the step being solved: from t = step dt to (step + 1) dt
  index_t iteration = 0;  // 1, 2, ...
  real du_inf = 0.0;      // ||du||_inf of this iteration's update
  real residual_inf = 0.0;  // ||F(u)||_inf before the update
  int stage = 0;  // which Newton solve of the step (ADI: 0 = first reaction half-step, 1 = second)
};

class NewtonLog {
 public:
  virtual ~NewtonLog() = default;
  virtual void record(const NewtonIteration& iteration) = 0;
};

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

// "step 19 (t = 190 -> 200)": the step a Newton failure happened in, for every message of one.
std::string newton_step_text(index_t step, real t, real dt);

// The error for a step whose Newton matrix the tridiagonal solver refused (`why`: its message,
// e.g. Thomas without diagonal dominance), naming the step, its time and the iteration.
NumericalError newton_solve_failure(index_t step, real t, real dt, index_t iteration,
                                    const std::string& why);

// The error for a step whose Newton matrix lost diagonal dominance at `row` before a solver
// that does not pivot (the GPU solvers) saw it.
NumericalError newton_not_dominant(index_t step, real t, real dt, index_t row);

// The error for a step whose Newton iteration did not converge, with its history.
NumericalError newton_failure(index_t step, real t, real dt, const NewtonSpec& spec,
                              const std::vector<real>& du_norms,
                              const std::vector<real>& residual_norms);

}  // namespace fhn
