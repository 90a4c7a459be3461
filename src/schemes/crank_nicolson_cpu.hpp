#pragma once
// Crank-Nicolson in time for v, with Newton's method on the nonlinear system of each step and
// a tridiagonal solve per Newton iteration; w by the trapezoidal rule (or the reference blog's
// leapfrog). Second order in time and space, stable far beyond the explicit limit. A cable also
// runs as one rank's slab of nodes: one halo node each side, exchanged for every residual, and
// the Newton systems solved across the ranks (parallel/ranks_tridiagonal.hpp).
#include <memory>

#include "parallel/halo_exchange.hpp"
#include "schemes/host_scheme.hpp"
#include "schemes/node_updates.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn {

class CrankNicolsonCpu final : public HostScheme {
 public:
  CrankNicolsonCpu(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log);
  // Rank comm.rank()'s slab of a cable (make_slab_scheme); `log` on the root only.
  CrankNicolsonCpu(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log,
                   Communicator& comm);

  std::string name() const override;
  const NewtonStats* newton_stats() const override { return &stats_; }

 private:
  void step() override;
  // The leapfrog update needs w at the previous step.
  void save_extra(SchemeState& state) const override {
    if (!w_prev_.empty()) state.add("w_previous", owned(w_prev_));
  }
  void restore_extra(const SchemeState& state) override {
    if (!w_prev_.empty())
      restore_owned(state.get("w_previous", static_cast<std::size_t>(slab_.owned_nodes())), w_prev_);
  }
  CrankNicolsonCpu(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log,
                   const Slab& slab, Communicator* comm);
  // One step for the run's kinetics form K (by value, as ExplicitCpu's).
  template <class K>
  void step_with(K kin);
  // F(u) into residual_, J's diagonal into diag_ (owned nodes); returns ||F||_inf.
  template <class K>
  real assemble(real c, K kin);

  NodeParams params_;
  CrankNicolsonSpec spec_;
  NewtonLog* log_;
  std::unique_ptr<solvers::TridiagonalSolver> solver_;
  NewtonStats stats_;

  std::vector<real> w_prev_;     // w at the previous step (leapfrog only)
  std::vector<real> u_;          // Newton iterate for v^{n+1}
  std::vector<real> p_;          // w+ = p + c u
  std::vector<real> rhs_;        // the known part of F
  std::vector<real> current_;    // I's mean over the step; empty without stimuli
  std::vector<real> lower_, diag_, upper_;  // J; the off-diagonals are constant
  std::vector<real> residual_;   // F(u), overwritten with du by the solver
  Communicator* comm_ = nullptr;          // a slab's ranks (nullptr: the whole cable)
  std::unique_ptr<HaloExchange> halo_;    // a slab's neighbour nodes
};

}  // namespace fhn
