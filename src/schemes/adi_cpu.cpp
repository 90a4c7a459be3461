#include "schemes/adi_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "schemes/node_updates.hpp"

namespace fhn {
namespace {

// Runs `solve`, the batched solve of a sheet's lines along `axis` in `layout` (node order: entry
// k of system s is node layout.at(s, k)) in step `step`. The solver's refusal of a line
// (solvers::TridiagonalFailure) is rethrown naming the step, the node where elimination stopped,
// and what it means: the line matrices I - (dt/2) L_h (adi_point.hpp) are diagonally dominant
// for every D >= 0 and dt > 0, so a refused one holds coefficients that are not finite.
template <class Solve>
void solve_lines(const Problem& problem, index_t step, int axis,
                 const solvers::BatchLayout& layout, Solve&& solve) {
  try {
    solve();
  } catch (const solvers::TridiagonalFailure& e) {
    const real t = problem.time.t(step);
    throw NumericalError(
        std::string("the diffusion solve along ") + axis_name(axis) + " of step " +
        std::to_string(step) + " (t = " + format_exact(t) + " -> " +
        format_exact(t + problem.time.dt) + ") failed on the line through " +
        problem.domain.describe_node(layout.at(e.system, e.row)) + ": " + e.what() +
        ". Hint: the line matrices I - (dt/2) D L_h are diagonally dominant for every finite "
        "D >= 0, so their coefficients near this node are not finite: D there (fields:, "
        "model.diffusion) times time.dt/dx^2 overflows a double; lower those values");
  }
}

}  // namespace

AdiCpu::AdiCpu(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log)
    : HostScheme(problem),
      spec_(spec),
      log_(log),
      setup_(adi_setup(problem, spec)),
      solvers_(adi_solvers(setup_, problem.domain, spec.tridiagonal, MemorySpace::host)),
      rhs_(problem.domain.node_count()) {
  set_up_nodes();
}

// A slab with one halo plane each side (a sheet's rows: the right side of the first half-step
// differences v along y; a box's z planes: Douglas's right sides difference v along z); each
// rank's share of the lines along the slab axis for the transpose.
AdiCpu::AdiCpu(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log,
               Communicator& comm)
    : HostScheme(problem, make_slab(problem.domain, comm.rank(), comm.size(), 1)),
      spec_(spec),
      log_(log),
      setup_(adi_setup(problem, spec)),
      solvers_(adi_solvers(setup_, problem.domain, spec.tridiagonal, MemorySpace::host)),
      rhs_(slab_.array_nodes()),
      comm_(&comm),
      halo_(make_host_halo_exchange(slab_, comm)) {
  FHN_VERIFY(problem.domain.dims >= 2 && !setup_.medium(), InternalError,
             "AdiCpu: slabs of a sheet or a box without fields only");
  // The lines along the slab axis (a sheet's columns, a box's z lines) start at the nodes of a
  // plane; rank s takes lines_[s] of them. The transpose's counts: this rank's planes of s's
  // lines, and s's planes of this rank's lines.
  for (int r = 0; r < comm.size(); ++r)
    lines_.push_back(split_range(slab_.plane, r, comm.size()));
  const Range& mine = lines_[static_cast<std::size_t>(comm.rank())];
  for (int s = 0; s < comm.size(); ++s) {
    const index_t theirs = lines_[static_cast<std::size_t>(s)].count;
    to_.push_back(static_cast<std::size_t>(slab_.count * theirs));
    from_.push_back(
        static_cast<std::size_t>(split_range(slab_.planes, s, comm.size()).count * mine.count));
  }
  set_up_nodes();
}

// The Dirichlet nodes among the owned ones (array indices), and the current arrays.
void AdiCpu::set_up_nodes() {
  const Domain& d = problem_.domain;
  const Sides sides = sides_of(problem_.boundary, d.dims);
  const index_t n[kMaxAxes] = {d.nodes[0], d.nodes[1], d.nodes[2]};
  const index_t first = slab_.owned_offset(), count = slab_.owned_nodes();
  for (index_t k = 0; k < count; ++k) {
    index_t at[kMaxAxes];
    d.axis_indices(slab_.global_offset() + k, at);
    real value = 0.0;
    if (dirichlet_at(sides, at, n, value)) held_.emplace_back(first + k, value);
  }
  if (!problem_.stimuli.empty())
    for (auto& current : current_) current.assign(static_cast<std::size_t>(slab_.array_nodes()), 0.0);
}

std::string AdiCpu::name() const {
  const int dims = problem_.domain.dims;
  return std::string("Crank-Nicolson by Strang splitting, diffusion ") +
         (dims == 3 ? "by Douglas ADI" : dims == 2 ? "by Peaceman-Rachford ADI" : "by Crank-Nicolson") +
         " (cpu, " +
         std::string(solvers_.along[0]->name()) + ", " + std::to_string(omp_get_max_threads()) + " threads)";
}

void AdiCpu::hold(std::vector<real>& u) const {
  for (const auto& [node, value] : held_) u[static_cast<std::size_t>(node)] = value;
}

void AdiCpu::react(const real* current, int stage) {
  const index_t first = slab_.owned_offset(), n = first + slab_.owned_nodes();
  const int max_it = setup_.reaction.max_iterations;
  // Per iteration k: the largest |du| and |g| over the nodes still iterating (a NaN kept: the
  // step then fails with it in its history, max_norm).
  std::vector<real> du_max(static_cast<std::size_t>(max_it), 0.0), g_max(du_max.size(), 0.0);
  index_t failed = -1;
  // A sheet with fields: a node outside the tissue keeps its state, the others take the form's
  // parameters at the node (kinetics_at).
  const std::uint8_t* quadrants = setup_.medium() ? setup_.quadrants.data() : nullptr;
  const real* values[kMaxFormParameters] = {};
  kinetics_values(problem_.fields, values);
#pragma omp parallel if (n - first >= (index_t{1} << 15))
  {
    std::vector<real> du_local(du_max.size(), 0.0), g_local(du_max.size(), 0.0);
    index_t failed_local = -1;
    // The form by value: the loop's stores cannot alias it, so what it computes from its
    // parameters alone (a reciprocal) is computed once, not per node.
    with_kinetics(problem_.model.kinetics, [&](const auto kin) {
      auto at_node = [&](index_t i) {
        const ReactionResult out = reaction_half_step(
            v_[i], w_[i], current ? current[i] : 0.0, current ? current[i] : 0.0, setup_.reaction,
            quadrants ? kinetics_at(kin, values, i) : kin, [&](int k, real du, real g) {
              du_local[k] = max_norm(du_local[k], du);
              g_local[k] = max_norm(g_local[k], g);
            });
        v_[i] = out.v;
        w_[i] = out.w;
        if (!out.converged && failed_local < 0) failed_local = i;
      };
      if (quadrants) {
#pragma omp for schedule(static)
        for (index_t i = first; i < n; ++i)
          if (quadrants[i] != 0) at_node(i);
      } else {
#pragma omp for schedule(static)
        for (index_t i = first; i < n; ++i) at_node(i);
      }
    });
#pragma omp critical
    {
      for (std::size_t k = 0; k < du_max.size(); ++k) {
        du_max[k] = max_norm(du_max[k], du_local[k]);
        g_max[k] = max_norm(g_max[k], g_local[k]);
      }
      if (failed_local >= 0 && (failed < 0 || failed_local < failed)) failed = failed_local;
    }
  }
  // Over the slabs, in one reduction (du, g, whether a node failed): every rank then takes the
  // same history and the same decision.
  if (comm_) {
    std::vector<real> agreed(du_max);
    agreed.insert(agreed.end(), g_max.begin(), g_max.end());
    agreed.push_back(failed >= 0 ? 1.0 : 0.0);
    comm_->max(agreed);
    std::copy(agreed.begin(), agreed.begin() + max_it, du_max.begin());
    std::copy(agreed.begin() + max_it, agreed.begin() + 2 * max_it, g_max.begin());
    failed = agreed.back() > 0.0 ? std::max<index_t>(failed, 0) : -1;
  }
  // The iterations the slowest node needed: the history up to the first k with nothing left.
  NewtonStep newton(spec_.newton, step_, problem_.time.t(step_), problem_.time.dt, log_, stats_,
                    stage);
  for (std::size_t k = 0; newton.record(du_max[k], g_max[k]); ++k) {
  }
  newton.finish(failed < 0);
}

// One step: reaction k/2, diffusion k, reaction k/2 (adi_point.hpp). Bytes per node: the two
// reaction passes read and write v, w (64 B); a sheet's diffusion builds two right sides
// (16 B each) and makes two constant-matrix solves (16 B each): 128 B per node and step (a
// box's: diffuse_box).
void AdiCpu::step() {
  const real k = problem_.time.dt;
  const real t = problem_.time.t(step_);
  const Domain& d = problem_.domain;
  const bool stimulated = !current_[0].empty();
  // The stimuli's means over the two reaction half-steps (stimulus_mean, span k/2).
  if (stimulated)
    for (int m = 0; m < 2; ++m)
      problem_.stimuli.currents(t + 0.5 * k * m, 0.5 * k, current_[m].data(),
                                slab_.array_first(), slab_.array_planes());
  auto current = [&](int m) { return stimulated ? current_[m].data() : nullptr; };

  // 1. Reaction from t to t + k/2.
  react(current(0), 0);
  hold(v_);

  // 2. Diffusion over k. rhs = u + (r/2) d(u) across the lines to be solved, then the solve.
  const real r = setup_.r;
  const index_t nx = d.nodes[0];
  if (d.dims == 1) {
    for (index_t i = 0; i < nx; ++i)
      rhs_[i] = adi_rhs(v_[i], axis_difference(i > 0 ? v_[i - 1] : 0.0, v_[i], i + 1 < nx ? v_[i + 1] : 0.0,
                                               i == 0, i == nx - 1), r);
    hold(rhs_);
    solvers_.along[0]->solve(solvers::BatchLayout::rows(nx, 1), rhs_.data());  // v+ in rhs_
  } else if (setup_.medium()) {
    diffuse_medium();
  } else if (d.dims == 3) {
    diffuse_box();
  } else {
    // The owned rows [j_begin, j_end) (all on the whole sheet); node (i, j) at i + N_x (j - row0).
    const index_t ny = d.nodes[1], row0 = slab_.array_first();
    const index_t j_begin = slab_.first, j_end = slab_.first + slab_.count;
    const bool threaded = nx * (j_end - j_begin) >= (index_t{1} << 15);
    if (halo_) halo_->exchange(v_.data(), 1);  // the rows next to the slab, for d_yy
    // (I - (k/2) D dxx) v* = (I + (k/2) D dyy) v: the right side differences along y.
#pragma omp parallel for schedule(static) if (threaded)
    for (index_t j = j_begin; j < j_end; ++j)
      for (index_t i = 0; i < nx; ++i) {
        const index_t c = i + nx * (j - row0);
        rhs_[c] = adi_rhs(v_[c], axis_difference(j > 0 ? v_[c - nx] : 0.0, v_[c], j + 1 < ny ? v_[c + nx] : 0.0,
                                                 j == 0, j == ny - 1), r);
      }
    hold(rhs_);
    solvers_.along[0]->solve(solvers::BatchLayout::rows(nx, j_end - j_begin),
                         rhs_.data() + slab_.owned_offset());
    hold(rhs_);  // the rows lying on a Dirichlet bottom or top side
    // (I - (k/2) D dyy) v+ = (I + (k/2) D dxx) v*: the right side differences along x.
#pragma omp parallel for schedule(static) if (threaded)
    for (index_t j = j_begin; j < j_end; ++j)
      for (index_t i = 0; i < nx; ++i) {
        const index_t c = i + nx * (j - row0);
        v_[c] = adi_rhs(rhs_[c], axis_difference(i > 0 ? rhs_[c - 1] : 0.0, rhs_[c], i + 1 < nx ? rhs_[c + 1] : 0.0,
                                                 i == 0, i == nx - 1), r);
      }
    hold(v_);
    if (slab_.whole())
      solvers_.along[1]->solve(solvers::BatchLayout::columns(nx, ny), v_.data());
    else
      solve_lines_across_ranks(v_.data() + slab_.owned_offset());
  }
  if (d.dims == 1) v_.swap(rhs_);
  hold(v_);

  // 3. Reaction from t + k/2 to t + k.
  react(current(1), 1);
  hold(v_);
}

// The diffusion step of a sheet with fields (adi_point.hpp, "Sheets with a tissue mask or D per
// node"), one process: the same two half-steps with every node's own row. Bytes per node: the
// right sides read v (or v*) and two coefficients and write one value (32 B each), the solves
// read three coefficients and the right side and write x (40 B each): 144 B, against 64 B of the
// uniform sheet's diffusion.
void AdiCpu::diffuse_medium() {
  const index_t nx = problem_.domain.nodes[0], ny = problem_.domain.nodes[1], n = nx * ny;
  const bool threaded = n >= (index_t{1} << 15);
  // (I - (k/2) L_x) v* = (I + (k/2) L_y) v.
  const real* lower = setup_.node_lower[1].data();
  const real* upper = setup_.node_upper[1].data();
#pragma omp parallel for schedule(static) if (threaded)
  for (index_t c = 0; c < n; ++c) rhs_[c] = adi_medium_rhs(v_.data(), c, nx, lower[c], upper[c]);
  hold(rhs_);
  const solvers::BatchLayout rows = solvers::BatchLayout::rows(nx, ny);
  solve_lines(problem_, step_, 0, rows, [&] {
    solvers_.along[0]->solve(rows, setup_.node_lower[0].data(), setup_.node_diag[0].data(),
                             setup_.node_upper[0].data(), rhs_.data());
  });
  // (I - (k/2) L_y) v+ = (I + (k/2) L_x) v*.
  lower = setup_.node_lower[0].data();
  upper = setup_.node_upper[0].data();
#pragma omp parallel for schedule(static) if (threaded)
  for (index_t c = 0; c < n; ++c) v_[c] = adi_medium_rhs(rhs_.data(), c, 1, lower[c], upper[c]);
  hold(v_);
  const solvers::BatchLayout columns = solvers::BatchLayout::columns(nx, ny);
  solve_lines(problem_, step_, 1, columns, [&] {
    solvers_.along[1]->solve(columns, setup_.node_lower[1].data(), setup_.node_diag[1].data(),
                             setup_.node_upper[1].data(), v_.data());
  });
}

// The diffusion step of a box, Douglas's three solves (adi_point.hpp): along x (rows,
// contiguous), along y (each plane's columns, stride N_x: one batch in planes) and along z (stride
// N_x N_y, the plane's nodes the systems), each right side from the last solve and v, the step's
// start, which stays in v_ until the end. A slab of z planes (one halo plane each side, for d_z v)
// solves its own x and y lines and the z lines after a transpose. Bytes per node: three right
// sides (read 2, write 1: 24 B; the first reads v alone, 16 B) and three constant-matrix solves
// (16 B each): 112 B.
void AdiCpu::diffuse_box() {
  const Domain& d = problem_.domain;
  const index_t nx = d.nodes[0], ny = d.nodes[1], nz = d.nodes[2], plane = nx * ny;
  // The owned planes [k_begin, k_end); node (i, j, k) at i + N_x (j + N_y (k - k0)).
  const index_t k_begin = slab_.first, k_end = slab_.first + slab_.count, k0 = slab_.array_first();
  const real r = setup_.r;
  if (halo_) halo_->exchange(v_.data(), 1);  // the planes next to the slab, for d_z v
  const real* v = v_.data();
  real* u = rhs_.data();
  real* owned = u + slab_.owned_offset();
  const bool threaded = plane * slab_.count >= (index_t{1} << 15);
  // The second difference of v at node c along an axis: `index` the node's index on it, n its
  // nodes, stride its step in the arrays.
  auto difference = [&](index_t c, index_t index, index_t n, index_t stride) {
    return axis_difference(index > 0 ? v[c - stride] : 0.0, v[c],
                           index + 1 < n ? v[c + stride] : 0.0, index == 0, index == n - 1);
  };
  // u1: (I - (k/2) A_x) u1 = v + (r/2) d_x v + r (d_y v + d_z v).
#pragma omp parallel for schedule(static) if (threaded)
  for (index_t k = k_begin; k < k_end; ++k)
    for (index_t j = 0; j < ny; ++j)
      for (index_t i = 0; i < nx; ++i) {
        const index_t c = i + nx * (j + ny * (k - k0));
        u[c] = douglas_rhs(v[c], difference(c, i, nx, 1), difference(c, j, ny, nx),
                           difference(c, k, nz, plane), r);
      }
  hold(rhs_);
  solvers_.along[0]->solve(solvers::BatchLayout::rows(nx, ny * slab_.count), owned);
  hold(rhs_);
  // The later right sides: u - (r/2) d_a v along the axis about to be solved.
  auto correct = [&](int axis) {
    const index_t n = d.nodes[axis], stride = d.stride(axis);
#pragma omp parallel for schedule(static) if (threaded)
    for (index_t k = k_begin; k < k_end; ++k)
      for (index_t j = 0; j < ny; ++j)
        for (index_t i = 0; i < nx; ++i) {
          const index_t c = i + nx * (j + ny * (k - k0));
          const index_t at[kMaxAxes] = {i, j, k};
          u[c] = douglas_correction(u[c], difference(c, at[axis], n, stride), r);
        }
    hold(rhs_);
  };
  // u2: (I - (k/2) A_y) u2 = u1 - (r/2) d_y v, the planes' columns in one batch.
  correct(1);
  solvers_.along[1]->solve(solvers::BatchLayout::plane_columns(nx, ny, slab_.count), owned);
  hold(rhs_);
  // v+: (I - (k/2) A_z) v+ = u2 - (r/2) d_z v.
  correct(2);
  if (slab_.whole())
    solvers_.along[2]->solve(solvers::BatchLayout::columns(plane, nz), u);
  else
    solve_lines_across_ranks(owned);
  v_.swap(rhs_);
}

// The lines along the slab axis (a sheet's columns along y, a box's lines along z) start at the
// P nodes of a plane; rank s takes lines_[s] of them. Forward: each rank sends rank s its owned
// planes' nodes of s's lines, plane by plane; the blocks arrive in rank order, i.e. in plane
// order, so `transposed_` holds entry m of line p at (p - first) + count m: the interleaved
// layout of `count` lines, solved exactly as the whole domain's lines are. Back: the same blocks
// return into `owned` (the owned planes, plane-major). Bytes per rank and step: the owned nodes
// x 8 B x (P - 1)/P, sent and received twice.
void AdiCpu::solve_lines_across_ranks(real* owned) {
  const index_t plane = slab_.plane;
  const auto ranks = lines_.size();
  const Range& mine = lines_[static_cast<std::size_t>(comm_->rank())];
  send_.clear();
  for (std::size_t s = 0; s < ranks; ++s) {
    const Range& c = lines_[s];
    for (index_t j = 0; j < slab_.count; ++j)
      for (index_t i = c.first; i < c.first + c.count; ++i) send_.push_back(owned[i + plane * j]);
  }
  comm_->all_to_all(send_, to_, transposed_, from_);
  if (mine.count > 0)
    solvers_.along[slab_.axis]->solve(solvers::BatchLayout::columns(mine.count, slab_.planes),
                                      transposed_.data());
  comm_->all_to_all(transposed_, from_, received_, to_);
  std::size_t next = 0;
  for (std::size_t s = 0; s < ranks; ++s) {
    const Range& c = lines_[s];
    for (index_t j = 0; j < slab_.count; ++j)
      for (index_t i = c.first; i < c.first + c.count; ++i) owned[i + plane * j] = received_[next++];
  }
}

}  // namespace fhn
