#pragma once
// Forward Euler in time, second-order central differences in space, on the CPU: a cable
// (ExplicitCpu) or a sheet (ExplicitSheetCpu, rows spread over the cores with OpenMP).
#include "schemes/host_scheme.hpp"
#include "schemes/node_updates.hpp"

namespace fhn {

class ExplicitCpu final : public HostScheme {
 public:
  explicit ExplicitCpu(const Problem& problem);
  std::string name() const override { return "explicit forward Euler (cpu)"; }

 private:
  void step() override;

  NodeParams params_;
  std::vector<real> current_;          // I_stim at t (empty without stimuli)
  std::vector<real> v_next_, w_next_;  // written by step(), then swapped in
};

class ExplicitSheetCpu final : public HostScheme {
 public:
  explicit ExplicitSheetCpu(const Problem& problem);
  std::string name() const override;

 private:
  void step() override;

  SheetParams params_;
  std::vector<real> current_;          // I_stim at t (empty without stimuli)
  std::vector<real> v_next_, w_next_;
};

}  // namespace fhn
