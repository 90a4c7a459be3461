#pragma once
// Forward Euler in time, second-order central differences in space, on the CPU.
#include "schemes/scheme.hpp"

namespace fhn {

class ExplicitCpu final : public Scheme {
 public:
  explicit ExplicitCpu(const Problem& problem);

  std::string name() const override { return "explicit forward Euler (cpu)"; }
  index_t node_count() const override { return problem_.nodes; }
  index_t steps_done() const override { return step_; }
  void advance(index_t steps) override;
  void snapshot(Snapshot& out) const override;
  index_t first_non_finite() const override;

 private:
  void step();

  Problem problem_;
  index_t step_ = 0;
  std::vector<real> v_, w_;            // state at t = step_ dt
  std::vector<real> v_next_, w_next_;  // written by step(), then swapped in
};

}  // namespace fhn
