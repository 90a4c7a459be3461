#include "schemes/crank_nicolson_cpu.hpp"

#include <algorithm>
#include <cmath>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "parallel/ranks_tridiagonal.hpp"

namespace fhn {

CrankNicolsonCpu::CrankNicolsonCpu(const Problem& problem, const CrankNicolsonSpec& spec,
                                   NewtonLog* log)
    : CrankNicolsonCpu(problem, spec, log, make_slab(problem.domain, 0, 1, 0), nullptr) {}

// A slab of at least two nodes (the partitioned solve's blocks) with one halo node each side.
CrankNicolsonCpu::CrankNicolsonCpu(const Problem& problem, const CrankNicolsonSpec& spec,
                                   NewtonLog* log, Communicator& comm)
    : CrankNicolsonCpu(problem, spec, log,
                       make_slab(problem.domain, comm.rank(), comm.size(), 1, 2), &comm) {
  FHN_VERIFY(problem.domain.dims == 1, InternalError, "CrankNicolsonCpu: slabs of a cable only");
}

CrankNicolsonCpu::CrankNicolsonCpu(const Problem& problem, const CrankNicolsonSpec& spec,
                                   NewtonLog* log, const Slab& slab, Communicator* comm)
    : HostScheme(problem, slab),
      params_(node_params(problem)),
      spec_(spec),
      log_(log),
      solver_(slab.whole() ? solvers::make_tridiagonal_solver(spec.tridiagonal,
                                                              problem.domain.node_count())
                           : std::make_unique<RanksPartitionedSolver>(
                                 *comm, slab.owned_nodes())),
      w_prev_(spec.w_update == WUpdate::leapfrog ? slab.array_nodes() : 0),
      u_(slab.array_nodes()),
      p_(slab.array_nodes()),
      rhs_(slab.array_nodes()),
      current_(problem.stimuli.empty() ? 0 : slab.array_nodes(), 0.0),
      lower_(slab.owned_nodes()),
      diag_(slab.owned_nodes()),
      upper_(slab.owned_nodes()),
      residual_(slab.owned_nodes()),
      comm_(slab.whole() ? nullptr : comm),
      halo_(slab.whole() ? nullptr : make_host_halo_exchange(slab, *comm)) {
  FHN_VERIFY(solver_->space() == MemorySpace::host, ConfigError,
             "scheme.crank_nicolson.tridiagonal: '" + std::string(solver_->name()) +
                 "' works on device memory; the cpu backend needs 'thomas' or "
                 "'thomas_partitioned'");
  // The owned rows of J's constant off-diagonals (a slab's first and last couple to the
  // neighbouring ranks' nodes).
  for (index_t k = 0; k < slab_.owned_nodes(); ++k) {
    const OffDiagonals row = cn_off_diagonal_row(slab_.global_offset() + k, params_);
    lower_[static_cast<std::size_t>(k)] = row.lower;
    upper_[static_cast<std::size_t>(k)] = row.upper;
  }
}

std::string CrankNicolsonCpu::name() const {
  return "Crank-Nicolson/Newton (cpu, " + std::string(solver_->name()) + ", w " +
         name_of(w_update_names(), spec_.w_update) + ")";
}

template <class K>
real CrankNicolsonCpu::assemble(real c, K kin) {
  real largest = 0.0;
  const index_t first = slab_.owned_offset();
  for (index_t k = 0; k < slab_.owned_nodes(); ++k) {
    const index_t a = first + k, i = slab_.array_first() + a;
    const NewtonPoint row =
        cn_newton_row(array_stencil(u_.data(), a, i, params_), p_[a], rhs_[a], c, i, params_, kin);
    residual_[k] = row.residual;
    diag_[k] = row.diag;
    largest = max_norm(largest, row.residual);
  }
  return largest;
}

void CrankNicolsonCpu::step() {
  with_kinetics(problem_.model.kinetics, [&](const auto& kin) { step_with(kin); });
}

// Array indices a over the owned nodes [begin, end); the node's global index is first + a.
template <class K>
void CrankNicolsonCpu::step_with(K kin) {
  const index_t m = slab_.owned_nodes();
  const index_t begin = slab_.owned_offset(), end = begin + m, first = slab_.array_first();
  const real k = params_.k;
  const real t = problem_.time.t(step_);

  // 1. w+ = W(u) from p and c (trapezoidal_w_point.hpp). Leapfrog takes its first step with the
  //    trapezoidal rule.
  const bool leapfrog = spec_.w_update == WUpdate::leapfrog && step_ > 0;
  const TrapezoidalW<K> trap = trapezoidal_w(kin, k);
  const real c = leapfrog ? 0.0 : trap.c;
  for (index_t a = begin; a < end; ++a)
    p_[a] = cn_w_offset(v_[a], w_[a], leapfrog ? w_prev_[a] : 0.0, leapfrog, trap, params_, kin);

  // 2. The explicit half of F, with the stimulus averaged over the step.
  if (!current_.empty())
    problem_.stimuli.currents(t, problem_.stimuli.dt(), current_.data(), first,
                              slab_.array_planes());
  if (halo_) halo_->exchange(v_.data(), 1);
  for (index_t a = begin; a < end; ++a) {
    const Stencil v = array_stencil(v_.data(), a, first + a, params_);
    rhs_[a] = cn_rhs(v_[a], w_[a], stencil_diffusion(v, first + a, params_),
                     current_.empty() ? 0.0 : current_[a], kin, params_.k);
  }

  // 3. Newton from u = v: solve J du = F(u), u -= du, until ||du||_inf < tolerance (the
  //    largest over the ranks, so that all decide alike).
  std::copy(v_.begin(), v_.end(), u_.begin());
  const solvers::TridiagonalSystem jacobian{m, lower_.data(), diag_.data(), upper_.data()};
  NewtonStep newton(spec_.newton, step_, t, k, log_, stats_);
  newton_iterate(newton, [&](index_t iteration) -> NewtonNorms {
    if (halo_ && iteration > 1) halo_->exchange(u_.data(), 1);  // u = v at the first
    real residual_inf = assemble(c, kin);
    try {
      solver_->solve(jacobian, residual_.data());  // residual_ now holds du
    } catch (const NumericalError& e) {
      throw newton.solve_failure(e.what());
    }
    real du_inf = 0.0;
    for (index_t j = 0; j < m; ++j) {
      u_[begin + j] -= residual_[j];
      du_inf = max_norm(du_inf, residual_[j]);
    }
    if (comm_) {
      std::vector<real> largest{du_inf, residual_inf};
      comm_->max(largest);  // non-finite ones as infinity
      du_inf = largest[0];
      residual_inf = largest[1];
    }
    return {du_inf, residual_inf};
  });

  // 4. Accept: v+ = u (confined for a form that needs it, kinetics/barkley.hpp), w+ = W(u).
  if (spec_.w_update == WUpdate::leapfrog) w_prev_.swap(w_);  // w_prev_ = w^n (w_ overwritten next)
  if constexpr (K::kConfined)
    for (index_t a = begin; a < end; ++a) u_[a] = kin.confine(u_[a]);
  for (index_t a = begin; a < end; ++a) w_[a] = trapezoidal_w_at(kin, u_[a], p_[a], c);
  v_.swap(u_);
}

}  // namespace fhn
