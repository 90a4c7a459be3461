#pragma once
// Forward Euler in time, second-order central differences in space, on the CPU.
#include "schemes/host_scheme.hpp"

namespace fhn {

class ExplicitCpu final : public HostScheme {
 public:
  explicit ExplicitCpu(const Problem& problem);
  std::string name() const override { return "explicit forward Euler (cpu)"; }

 private:
  void step() override;

  std::vector<real> v_next_, w_next_;  // written by step(), then swapped in
};

}  // namespace fhn
