#include "schemes/explicit_cpu.hpp"

#include <omp.h>

#include <type_traits>

#include "core/error.hpp"
#include "model/tissue.hpp"
#include "schemes/for_each_node.hpp"

namespace fhn {

// The nodes of the slab's owned planes (all of the whole domain).
static NodeBox owned_nodes(const Domain& d, const Slab& slab) {
  NodeBox box;
  for (int a = 0; a < kMaxAxes; ++a) box.hi[a] = d.nodes[a];
  box.lo[slab.axis] = slab.first;
  box.hi[slab.axis] = slab.first + slab.count;
  return box;
}

ExplicitCpu::ExplicitCpu(const Problem& problem, ExplicitPath path)
    : HostScheme(problem),
      path_(path),
      params_(node_params(problem)),
      owned_(owned_nodes(problem.domain, slab_)),
      exec_(HostExec::for_nodes(owned_.count())),
      current_(problem.stimuli.empty() ? 0 : problem.domain.node_count(), 0.0),
      v_next_(problem.domain.node_count()),
      w_next_(problem.domain.node_count()) {
  if (problem.domain.dims == 2) set_up_fields();
}

// A slab with one halo row each side: the 5-point stencil reaches one row.
ExplicitCpu::ExplicitCpu(const Problem& problem, Communicator& comm)
    : HostScheme(problem, make_slab(problem.domain, comm.rank(), comm.size(), 1)),
      params_(node_params(problem)),
      owned_(owned_nodes(problem.domain, slab_)),
      exec_(HostExec::for_nodes(owned_.count())),
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

bool ExplicitCpu::fast_path() const { return path_ == ExplicitPath::fast && !heterogeneous_; }

// One step: v+ = v + k (D L_h v + f(v, w) + I),  w+ = w + k g(v, w).
// Bytes per node: read v, w; write v+, w+ (32 B), one pass.
void ExplicitCpu::step() {
  const real t = problem_.time.t(step_);
  if (!current_.empty())
    problem_.stimuli.currents(t, 0.0, current_.data(), slab_.array_first(),
                              slab_.array_planes());
  if (halo_) halo_->exchange(v_.data(), 1);  // the neighbours' rows next to the slab
  const real* current = current_.empty() ? nullptr : current_.data();
  with_kinetics(problem_.model.kinetics, [&](const auto& kin) {
    if (!fast_path())
      generic_step(kin, current);
    else if (problem_.domain.dims == 1)
      cable_step(kin, current);
    else if (problem_.domain.dims == 2)
      sheet_step(kin, current);
    else
      box_step(kin, current);
  });
  v_.swap(v_next_);
  w_.swap(w_next_);
}

// Every owned node by the point layer's explicit_update of the run's dimension and medium.
template <class K>
void ExplicitCpu::generic_step(K kin, const real* current) {
  auto run = [&](auto dims, auto medium) {
    const ExplicitStep<decltype(dims)::value, decltype(medium), K, ArrayCurrents> node{
        v_.data(), w_.data(), v_next_.data(), w_next_.data(), params_, medium, kin, {current}};
    for_each_node(exec_, owned_, node);
  };
  using One = std::integral_constant<int, 1>;
  using Two = std::integral_constant<int, 2>;
  using Three = std::integral_constant<int, 3>;
  if (problem_.domain.dims == 1)
    run(One{}, UniformMedium{});
  else if (problem_.domain.dims == 3)
    run(Three{}, UniformMedium{});
  else if (heterogeneous_)
    run(Two{}, medium_);
  else if (!quadrants_.empty())
    run(Two{}, MaskedMedium{quadrants_.data()});
  else
    run(Two{}, UniformMedium{});
}

// The fast paths: each row's end nodes by explicit_update, the nodes between by
// explicit_interior_update (branch-free: the loop vectorises); the same numbers as the generic
// path. (i, j, k) are global, array indices from sheet_index / box_index.
template <class K>
void ExplicitCpu::cable_step(K kin, const real* current) {
  const real *v = v_.data(), *w = w_.data();
  const ArrayCurrents at{current};
  auto store = [&](index_t c, const ExplicitPointUpdate& u) {
    v_next_[c] = u.v;
    w_next_[c] = u.w;
  };
  auto end = [&](index_t i) {
    store(i, explicit_update(v, w, [&](index_t n) { return at(n, n, 0, 0); }, i, params_, kin));
  };
  const index_t last = params_.n[0] - 1;
  for (index_t i = 1; i < last; ++i)
    store(i, explicit_interior_update<1>(v, w, at(i, i, 0, 0), i, params_, kin));
  end(0);
  end(last);
}

// A row on a side of the sheet (j at its first or last node) goes node by node.
template <class K>
void ExplicitCpu::sheet_step(K kin, const real* current) {
  const NodeParams& q = params_;
  const real *v = v_.data(), *w = w_.data();
  const index_t nx = q.n[0], ny = q.n[1];
  auto store = [&](index_t c, const ExplicitPointUpdate& u) {
    v_next_[c] = u.v;
    w_next_[c] = u.w;
  };
  auto rows = [&](const auto& medium, auto&& interior) {
    for_each_row(exec_, owned_, [&](index_t j, index_t) {
      auto edge = [&](index_t i) {
        const index_t c = sheet_index(i, j, q);
        store(c, explicit_update(v, w, current ? current[c] : 0.0, i, j, q, medium, kin));
      };
      if (j == 0 || j == ny - 1) {
        for (index_t i = 0; i < nx; ++i) edge(i);
        return;
      }
      edge(0);
      const index_t row = sheet_index(0, j, q);
      interior(row + 1, row + nx - 1);
      edge(nx - 1);
    });
  };
  if (!quadrants_.empty()) {
    const MaskedMedium medium{quadrants_.data()};
    rows(medium, [&](index_t first, index_t last) {
      for (index_t c = first; c < last; ++c)
        store(c, explicit_interior_update(v, w, current ? current[c] : 0.0, c, q, medium, kin));
    });
    return;
  }
  rows(UniformMedium{}, [&](index_t first, index_t last) {
    if (current) {
      for (index_t c = first; c < last; ++c)
        store(c, explicit_interior_update<2>(v, w, current[c], c, q, kin));
    } else {
      for (index_t c = first; c < last; ++c)
        store(c, explicit_interior_update<2>(v, w, 0.0, c, q, kin));
    }
  });
}

// A row on a face of the box (j or k at its first or last node) goes node by node.
template <class K>
void ExplicitCpu::box_step(K kin, const real* current) {
  const NodeParams& q = params_;
  const real *v = v_.data(), *w = w_.data();
  const index_t nx = q.n[0], ny = q.n[1], nz = q.n[2];
  auto store = [&](index_t c, const ExplicitPointUpdate& u) {
    v_next_[c] = u.v;
    w_next_[c] = u.w;
  };
  auto at = [&](index_t c) { return current ? current[c] : 0.0; };
  for_each_row(exec_, owned_, [&](index_t j, index_t k) {
    auto edge = [&](index_t i) {
      const index_t c = box_index(i, j, k, q);
      store(c, explicit_update(v, w, at(c), i, j, k, q, kin));
    };
    if (k == 0 || k == nz - 1 || j == 0 || j == ny - 1) {
      for (index_t i = 0; i < nx; ++i) edge(i);
      return;
    }
    edge(0);
    const index_t row = box_index(0, j, k, q);
    for (index_t c = row + 1; c < row + nx - 1; ++c)
      store(c, explicit_interior_update<3>(v, w, at(c), c, q, kin));
    edge(nx - 1);
  });
}

}  // namespace fhn
