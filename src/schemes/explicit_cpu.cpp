#include "schemes/explicit_cpu.hpp"

#include <omp.h>

#include "core/error.hpp"
#include "model/tissue.hpp"

namespace fhn {

ExplicitCpu::ExplicitCpu(const Problem& problem)
    : HostScheme(problem),
      params_(node_params(problem)),
      current_(problem.stimuli.empty() ? 0 : problem.domain.node_count(), 0.0),
      v_next_(problem.domain.node_count()),
      w_next_(problem.domain.node_count()) {
  if (problem.domain.dims == 2) set_up_fields();
}

// A slab with one halo row each side: the 5-point stencil reaches one row.
ExplicitCpu::ExplicitCpu(const Problem& problem, Communicator& comm)
    : HostScheme(problem, make_slab(problem.domain, comm.rank(), comm.size(), 1)),
      params_(node_params(problem)),
      halo_(make_host_halo_exchange(slab_, comm)),
      current_(problem.stimuli.empty() ? 0 : slab_.array_nodes(), 0.0),
      v_next_(slab_.array_nodes()),
      w_next_(slab_.array_nodes()) {
  FHN_VERIFY(problem.domain.dims >= 2, InternalError,
             "ExplicitCpu: slabs of a sheet or a box only");
  params_.plane0 = slab_.array_first();
  params_.planes = slab_.array_planes();
  if (problem.domain.dims == 2) set_up_fields();
}

// A sheet with fields: the quadrant bytes and the per-node arrays, on the slab's planes. The
// whole sheet reads the problem's own arrays; a slab its parts of them (halo rows included: a
// node's faces and cells reach its neighbours' D and D_xy), which it keeps.
void ExplicitCpu::set_up_fields() {
  const ParameterFields& fields = problem_.fields;
  if (fields.uniform()) return;
  quadrants_ = slab_part(tissue_quadrants(fields.node_type, problem_.domain), slab_);
  heterogeneous_ = heterogeneous(fields);
  medium_ = medium_constants(problem_);
  medium_.quadrants = quadrants_.data();
  auto part = [&](const std::vector<real>& global) -> const real* {
    if (global.empty()) return nullptr;
    if (slab_.whole()) return global.data();
    return parts_.emplace_back(slab_part(global, slab_)).data();
  };
  parts_.reserve(3 + fields.kinetics.size());  // the pointers into parts_ stay valid
  if (!fields.diffusion.uniform()) medium_.dxx = medium_.dyy = part(fields.diffusion.values);
  if (!fields.tensor.uniform()) {
    medium_.dxx = part(fields.tensor.xx_values);
    medium_.dyy = part(fields.tensor.yy_values);
    medium_.dxy = part(fields.tensor.xy_values);
  }
  FHN_VERIFY(fields.kinetics.size() <= static_cast<std::size_t>(kMaxFormParameters),
             InternalError, "ExplicitCpu: more kinetics parameters than kMaxFormParameters");
  for (std::size_t p = 0; p < fields.kinetics.size(); ++p)
    medium_.kinetics[p] = part(fields.kinetics[p].values);
}

std::string ExplicitCpu::name() const {
  if (problem_.domain.dims == 1) return "explicit forward Euler (cpu)";
  return std::string("explicit forward Euler on a ") + problem_.domain.kind() + " (cpu, " +
         std::to_string(omp_get_max_threads()) +
         (omp_get_max_threads() == 1 ? " thread)" : " threads)");
}

// One step: v+ = v + k (D L_h v + f(v, w) + I),  w+ = w + k g(v, w).
// Bytes per node: read v, w; write v+, w+ (32 B), one pass.
void ExplicitCpu::step() {
  const real t = problem_.time.t(step_);
  if (!current_.empty())
    problem_.stimuli.currents(t, 1.0, 0.0, current_.data(), slab_.array_first(),
                              slab_.array_planes());
  if (halo_) halo_->exchange(v_.data(), 1);  // the neighbours' rows next to the slab
  const real* current = current_.empty() ? nullptr : current_.data();
  with_kinetics(problem_.model.kinetics, [&](const auto& kin) {
    if (problem_.domain.dims == 1)
      cable_step(kin, current, v_.data(), w_.data(), v_next_.data(), w_next_.data());
    else if (problem_.domain.dims == 2)
      sheet_step(kin, current, v_.data(), w_.data(), v_next_.data(), w_next_.data());
    else
      box_step(kin, current, v_.data(), w_.data(), v_next_.data(), w_next_.data());
  });
  v_.swap(v_next_);
  w_.swap(w_next_);
}

template <class K>
void ExplicitCpu::cable_step(K kin, const real* current, const real* v, const real* w,
                             real* v_next, real* w_next) const {
  auto store = [&](index_t i, const ExplicitPointUpdate& u) {
    v_next[i] = u.v;
    w_next[i] = u.w;
  };
  const index_t last = params_.n[0] - 1;
  for (index_t i = 1; i < last; ++i)
    store(i, explicit_interior_node(v, w, current, i, params_, kin));
  store(0, explicit_node(v, w, current, 0, params_, kin));
  store(last, explicit_node(v, w, current, last, params_, kin));
}

// Rows j are independent, so they are shared out among the cores (each node's value does not
// depend on the split). The rows computed are the slab's owned ones (all on the whole sheet);
// (i, j) are global, array indices from sheet_index.
template <class K>
void ExplicitCpu::sheet_step(K kin, const real* current, const real* v, const real* w,
                             real* v_next, real* w_next) const {
  const NodeParams& q = params_;
  const index_t nx = q.n[0], ny = q.n[1];
  auto store = [&](index_t c, const ExplicitPointUpdate& u) {
    v_next[c] = u.v;
    w_next[c] = u.w;
  };
  const index_t j_begin = slab_.first, j_end = slab_.first + slab_.count;
  // Threads pay off from about 2^15 nodes (a thread team costs a few microseconds per step).
  const bool threaded = nx * (j_end - j_begin) >= (index_t{1} << 15);
  // Every owned row: side rows node by node with edge(i, j), the others' end nodes with edge and
  // the nodes between, array indices [first, last), with interior(first, last).
  auto sweep = [&](auto&& edge, auto&& interior) {
#pragma omp parallel for schedule(static) if (threaded)
    for (index_t j = j_begin; j < j_end; ++j) {
      if (j == 0 || j == ny - 1) {
        for (index_t i = 0; i < nx; ++i) edge(i, j);
        continue;
      }
      edge(0, j);
      const index_t row = sheet_index(0, j, q);
      interior(row + 1, row + nx - 1);
      edge(nx - 1, j);
    }
  };
  if (heterogeneous_) {
    // Per-node D, kinetics or anisotropy: node by node (array index c is row j - plane0).
    auto node = [&](index_t i, index_t j) {
      const index_t c = sheet_index(i, j, q);
      store(c, explicit_medium_node(v, w, current ? current[c] : 0.0, i, j, q, medium_, kin));
    };
    sweep(node, [&](index_t first, index_t last) {
      for (index_t c = first; c < last; ++c) node(c % nx, c / nx + q.plane0);
    });
    return;
  }
  if (!quadrants_.empty()) {
    // A tissue mask: the masked node updates.
    const std::uint8_t* quadrants = quadrants_.data();
    sweep(
        [&](index_t i, index_t j) {
          const index_t c = sheet_index(i, j, q);
          store(c, explicit_masked_sheet_node(v, w, quadrants, current ? current[c] : 0.0, i, j, q, kin));
        },
        [&](index_t first, index_t last) {
          for (index_t c = first; c < last; ++c)
            store(c, explicit_masked_interior_node(v, w, quadrants, current ? current[c] : 0.0, c, q, kin));
        });
    return;
  }
  sweep(
      [&](index_t i, index_t j) {
        const index_t c = sheet_index(i, j, q);
        store(c, explicit_sheet_node(v, w, current ? current[c] : 0.0, i, j, q, kin));
      },
      [&](index_t first, index_t last) {
        if (current) {
          for (index_t c = first; c < last; ++c)
            store(c, explicit_sheet_interior_node(v, w, current[c], c, q, kin));
        } else {
          for (index_t c = first; c < last; ++c)
            store(c, explicit_sheet_interior_node(v, w, 0.0, c, q, kin));
        }
      });
}

// Rows (j, k) are independent: the planes k are shared out among the cores. A row on a face of
// the box (j or k at its first or last node) goes node by node with explicit_box_node; the
// others' end nodes likewise and the nodes between with the interior update. The planes computed
// are the slab's owned ones (all on the whole box); (i, j, k) are global, array indices from
// box_index.
template <class K>
void ExplicitCpu::box_step(K kin, const real* current, const real* v, const real* w,
                           real* v_next, real* w_next) const {
  const NodeParams& q = params_;
  const index_t nx = q.n[0], ny = q.n[1], nz = q.n[2];
  auto store = [&](index_t c, const ExplicitPointUpdate& u) {
    v_next[c] = u.v;
    w_next[c] = u.w;
  };
  auto at = [&](index_t c) { return current ? current[c] : 0.0; };
  auto edge = [&](index_t i, index_t j, index_t k) {
    const index_t c = box_index(i, j, k, q);
    store(c, explicit_box_node(v, w, at(c), i, j, k, q, kin));
  };
  const index_t k_begin = slab_.first, k_end = slab_.first + slab_.count;
  const bool threaded = nx * ny * (k_end - k_begin) >= (index_t{1} << 15);
#pragma omp parallel for schedule(static) if (threaded)
  for (index_t k = k_begin; k < k_end; ++k)
    for (index_t j = 0; j < ny; ++j) {
      if (k == 0 || k == nz - 1 || j == 0 || j == ny - 1) {
        for (index_t i = 0; i < nx; ++i) edge(i, j, k);
        continue;
      }
      edge(0, j, k);
      const index_t row = box_index(0, j, k, q);
      for (index_t c = row + 1; c < row + nx - 1; ++c)
        store(c, explicit_box_interior_node(v, w, at(c), c, q, kin));
      edge(nx - 1, j, k);
    }
}

}  // namespace fhn
