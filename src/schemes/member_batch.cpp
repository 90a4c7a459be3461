#include "schemes/member_batch.hpp"

#include "config/capability_key.hpp"
#include "core/error.hpp"
#include "core/first_error.hpp"
#include "schemes/cuda_schemes.hpp"
#include "schemes/host_member_batch.hpp"

namespace fhn {

std::unique_ptr<MemberBatch> make_member_batch(const std::vector<Problem>& problems,
                                               const SchemeSpec& spec, int threads) {
  FHN_VERIFY(!problems.empty(), InternalError, "make_member_batch: at least one member");
  // Each member with its own medium (they share the grid and the scheme).
  for (const Problem& problem : problems)
    capability::require(capability_key(spec, problem.domain.dims, capability::Mode::members,
                                       medium_of(problem.fields)));
  if (spec.backend == Backend::cuda) return make_cuda_member_batch(problems, spec);
  return std::make_unique<HostMemberBatch>(problems, spec, threads);
}

void MemberBatch::iso_cells(const std::vector<real>& v_iso, const std::vector<real>& w_iso,
                            std::vector<std::vector<IsoCell>>& cells,
                            std::vector<index_t>& excited) const {
  const index_t count = members();
  cells.assign(static_cast<std::size_t>(count), {});
  excited.assign(static_cast<std::size_t>(count), 0);
  FirstError failed;
#pragma omp parallel
  {
    Snapshot snap;  // one per thread, reused
#pragma omp for schedule(dynamic)
    for (index_t m = 0; m < count; ++m)
      failed.guard(m, [&] {
        const auto k = static_cast<std::size_t>(m);
        snapshot(m, snap);
        straddling_cells(snap.domain, snap.v.data(), snap.w.data(), nullptr, v_iso[k], w_iso[k],
                         cells[k]);
        excited[k] =
            excited_nodes(snap.v.data(), static_cast<index_t>(snap.v.size()), nullptr, v_iso[k]);
      });
  }
  failed.rethrow();
}

// Device bytes per node of one member (member_batch_cuda.cuh): explicit v, w and the next v, w
// (32 B); Crank-Nicolson / Newton v, w, the iterate u, p, the right side, J's three diagonals
// and F (72 B; the leapfrog's previous w besides: 80 B) and the partitioned solver's interface
// values (about 4 B); the split scheme (adi) v, w and the right side (24 B) and the solvers'
// interface values (about 4 B per axis). A member's nodes are padded to an even count (16-byte
// aligned members).
std::size_t cuda_bytes_per_node(const SchemeSpec& spec) {
  const CrankNicolsonSpec& cn = spec.crank_nicolson;
  if (spec.type != SchemeType::crank_nicolson || cn.formulation == Formulation::adi) return 32;
  return cn.w_update == WUpdate::leapfrog ? 84 : 76;
}

std::size_t cuda_member_bytes(const SchemeSpec& spec, index_t nodes) {
  const auto n = static_cast<std::size_t>(nodes);
  return cuda_bytes_per_node(spec) * (n + n % 2);
}

}  // namespace fhn
