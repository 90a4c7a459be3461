#include "schemes/cuda/member_batch_cuda.cuh"

#include <algorithm>
#include <utility>

#include "config/names.hpp"
#include "core/cuda/launch.hpp"
#include "core/format.hpp"
#include "schemes/cuda_schemes.hpp"

namespace fhn::cuda {
namespace {

// ---- Kernels of every scheme ----------------------------------------------------------------

// Per member, the first node whose v or w is not finite (first_bad[m] starts at ~0: none);
// frozen members are skipped.
__global__ void first_non_finite_kernel(Members b, const real* __restrict__ v,
                                        const real* __restrict__ w, const int* __restrict__ frozen,
                                        unsigned long long* first_bad) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= b.count * b.pitch) return;
  const unsigned m = b.member(g), i = g - m * b.pitch;
  if (i < b.n && !frozen[m] && !(isfinite(v[g]) && isfinite(w[g])))
    atomicMin(&first_bad[m], static_cast<unsigned long long>(i));
}

// out[m count + k] = v_m[nodes[k]].
__global__ void gather_kernel(Members b, const real* __restrict__ v,
                              const index_t* __restrict__ nodes, unsigned count,
                              real* __restrict__ out) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= b.count * count) return;
  const unsigned m = g / count, k = g - m * count;
  out[g] = v[static_cast<std::size_t>(m) * b.pitch + nodes[k]];
}

// Sheets of nx x ny nodes: thread g = m pitch + node. Node (i, j) of member m counts into
// excited[m] where v >= v_iso[m] (one atomic per warp and member: the lanes of a member add up
// their ballot); where it is a cell's lower-left corner (i < nx - 1, j < ny - 1) and both
// v - v_iso[m] and w - w_iso[m] change sign over the cell (changes_sign, as straddling_cells),
// the cell is appended to found[] (its slot from the counter; past `capacity` only counted).
// levels: v_iso of every member, then w_iso of every member.
__global__ void straddling_kernel(Members b, index_t nx, index_t ny, const real* __restrict__ v,
                                  const real* __restrict__ w, const real* __restrict__ levels,
                                  MemberCell* found, unsigned long long capacity,
                                  unsigned long long* count, unsigned long long* excited) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  const bool entry = g < b.count * b.pitch;
  const unsigned m = entry ? b.member(g) : b.count;  // b.count: no member
  const unsigned node = entry ? g - m * b.pitch : 0;
  const bool valid = entry && node < b.n;
  const real v_iso = valid ? levels[m] : 0.0;
  const bool above = valid && v[g] >= v_iso;
  // The warp's lanes of one member: their count, added by the first of them.
  const unsigned same = __match_any_sync(0xffffffffu, m);
  const unsigned ones = __ballot_sync(0xffffffffu, above) & same;
  if (valid && ones != 0u && (threadIdx.x & 31u) == static_cast<unsigned>(__ffs(same) - 1))
    atomicAdd(&excited[m], static_cast<unsigned long long>(__popc(ones)));
  if (!valid) return;
  const real w_iso = levels[b.count + m];
  const index_t i = node % nx, j = node / nx;
  if (i + 1 >= nx || j + 1 >= ny) return;
  const std::size_t c[4] = {g, g + 1, g + static_cast<std::size_t>(nx), g + static_cast<std::size_t>(nx) + 1};
  if (!changes_sign(v[c[0]] - v_iso, v[c[1]] - v_iso, v[c[2]] - v_iso, v[c[3]] - v_iso) ||
      !changes_sign(w[c[0]] - w_iso, w[c[1]] - w_iso, w[c[2]] - w_iso, w[c[3]] - w_iso))
    return;
  const unsigned long long slot = atomicAdd(count, 1ull);
  if (slot >= capacity) return;
  MemberCell& out = found[slot];
  out.member = m;
  out.cell.i = i;
  out.cell.j = j;
  out.cell.k = 0;
  out.cell.normal = 2;  // a sheet's cell (grid/iso_cells.hpp)
  for (int k = 0; k < 4; ++k) {
    out.cell.v[k] = v[c[k]];
    out.cell.w[k] = w[c[k]];
  }
}

// What the cuda sweep cannot batch beyond the capability table; ConfigError naming the key.
void check_batchable(const SchemeSpec& s) {
  // Scheme, domain, medium and backend: the capability table, which make_member_batch asks
  // first. What it does not hold: which tridiagonal solvers have a batched GPU form.
  if (s.type != SchemeType::crank_nicolson) return;
  const solvers::TridiagonalBackend backend = s.crank_nicolson.tridiagonal;
  FHN_VERIFY(backend == solvers::TridiagonalBackend::partitioned ||
                 backend == solvers::TridiagonalBackend::cusparse,
             ConfigError,
             "scheme.crank_nicolson.tridiagonal: " + std::string(solvers::backend_name(backend)) +
                 " has no batched GPU form; the cuda sweep supports crank_nicolson with "
                 "tridiagonal partitioned or cusparse");
}

}  // namespace

void MemberBatchCuda::sample(const std::vector<index_t>& nodes, std::vector<real>& out) {
  for (const index_t node : nodes)
    FHN_VERIFY(node >= 0 && node < n_, InternalError,
               "cuda sweep: sample node " + std::to_string(node) + " outside 0.." +
                   std::to_string(n_ - 1));
  out.resize(static_cast<std::size_t>(members_) * nodes.size());
  if (nodes.empty()) return;
  if (nodes != sample_nodes_) {
    sample_index_ = DeviceBuffer<index_t>(nodes.size(), "sweep sample nodes");
    sample_index_.upload(nodes.data(), nodes.size());
    sample_out_ = DeviceBuffer<real>(out.size(), "sweep samples");
    sample_nodes_ = nodes;
  }
  const auto count = static_cast<unsigned>(nodes.size());
  gather_kernel<<<blocks_for(static_cast<index_t>(out.size())), kBlock>>>(
      view(), v_.data(), sample_index_.data(), count, sample_out_.data());
  FHN_CUDA_CHECK_LAUNCH();
  sample_out_.download(out.data(), out.size());
}

void MemberBatchCuda::read_nodes(index_t member, const std::vector<index_t>& nodes,
                                 std::vector<real>& v, std::vector<real>& w) const {
  FHN_VERIFY(member >= 0 && member < members_, InternalError,
             "cuda sweep: no member " + std::to_string(member));
  const std::size_t count = nodes.size();
  v.resize(count);
  w.resize(count);
  if (count == 0) return;
  if (nodes != read_nodes_) {
    for (const index_t node : nodes)
      FHN_VERIFY(node >= 0 && node < n_, InternalError,
                 "cuda sweep: node " + std::to_string(node) + " outside 0.." +
                     std::to_string(n_ - 1));
    read_index_ = DeviceBuffer<index_t>(count, "sweep member's probe nodes");
    read_index_.upload(nodes.data(), count);
    read_out_ = DeviceBuffer<real>(2 * count, "sweep member's probe values");
    read_nodes_ = nodes;
  }
  // The gather over one member: its slice as a batch of one.
  Members one = view();
  one.count = 1;
  const std::size_t first = static_cast<std::size_t>(member * pitch_);
  const unsigned blocks = blocks_for(static_cast<index_t>(count));
  gather_kernel<<<blocks, kBlock>>>(one, v_.data() + first, read_index_.data(),
                                    static_cast<unsigned>(count), read_out_.data());
  FHN_CUDA_CHECK_LAUNCH();
  gather_kernel<<<blocks, kBlock>>>(one, w_.data() + first, read_index_.data(),
                                    static_cast<unsigned>(count), read_out_.data() + count);
  FHN_CUDA_CHECK_LAUNCH();
  std::vector<real> values(2 * count);
  read_out_.download(values.data(), values.size());
  std::copy(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(count), v.begin());
  std::copy(values.begin() + static_cast<std::ptrdiff_t>(count), values.end(), w.begin());
}

void MemberBatchCuda::record_activation(index_t member, real threshold, bool keep_last) {
  FHN_VERIFY(member >= 0 && member < members_ && step_ == 0, InternalError,
             "cuda sweep: activation recorded for member " + std::to_string(member) +
                 " of " + std::to_string(members_) + " at step " + std::to_string(step_) +
                 " (before the first step only)");
  Recording& r = recording_.emplace_back(member, n_, threshold, keep_last);
  FHN_CUDA_CHECK(cudaMemcpy(r.before.data(), v_.data() + member * pitch_,
                            static_cast<std::size_t>(n_) * sizeof(real), cudaMemcpyDeviceToDevice));
}

MemberBatchCuda::Recording::Recording(index_t m, index_t n, real threshold, bool keep_last)
    : member(m),
      before(static_cast<std::size_t>(n), "sweep member's v before the step"),
      first(static_cast<std::size_t>(n), "sweep member's activation times (first)"),
      last(keep_last ? static_cast<std::size_t>(n) : 0, "sweep member's activation times (last)") {
  host.start(n, threshold, keep_last);
  first.upload(host.first.data(), host.first.size());  // NaN: none yet
  if (keep_last) last.upload(host.last.data(), host.last.size());
}

void MemberBatchCuda::record_crossings(index_t step) {
  const auto n = static_cast<std::size_t>(n_);
  for (Recording& r : recording_) {
    const real* now = v_.data() + r.member * pitch_;
    launch_record_crossings(r.before.data(), now, n_,
                            {r.first.data(), r.host.keep_last ? r.last.data() : nullptr,
                             r.host.threshold},
                            time_.t(step), time_.dt, nullptr);
    FHN_CUDA_CHECK(cudaMemcpyAsync(r.before.data(), now, n * sizeof(real),
                                   cudaMemcpyDeviceToDevice));
  }
}

void MemberBatchCuda::fill_activation(index_t member, Snapshot& out) const {
  const auto r = std::find_if(recording_.begin(), recording_.end(),
                              [&](const Recording& x) { return x.member == member; });
  if (r == recording_.end()) {
    out.activation_first.clear();
    out.activation_last.clear();
    return;
  }
  r->first.download(r->host.first.data(), r->host.first.size());
  if (r->host.keep_last) r->last.download(r->host.last.data(), r->host.last.size());
  r->host.fill(out);
}

void MemberBatchCuda::iso_cells(const std::vector<real>& v_iso, const std::vector<real>& w_iso,
                                std::vector<std::vector<IsoCell>>& cells,
                                std::vector<index_t>& excited) const {
  FHN_VERIFY(domain_.dims == 2 && v_iso.size() == static_cast<std::size_t>(members_) &&
                 w_iso.size() == v_iso.size(),
             InternalError, "cuda sweep: iso_cells needs sheets and one level pair per member");
  const auto count = static_cast<std::size_t>(members_);
  std::vector<real> levels(v_iso);
  levels.insert(levels.end(), w_iso.begin(), w_iso.end());
  if (iso_levels_.size() != levels.size()) {
    iso_levels_ = DeviceBuffer<real>(levels.size(), "sweep iso levels");
    iso_count_ = DeviceBuffer<unsigned long long>(1, "sweep iso cell count");
    iso_excited_ = DeviceBuffer<unsigned long long>(count, "sweep excited nodes");
    iso_found_ = DeviceBuffer<MemberCell>(64 * count, "sweep iso cells");  // grown below
  }
  iso_levels_.upload(levels.data(), levels.size());
  unsigned long long found = 0;
  for (;;) {
    FHN_CUDA_CHECK(cudaMemset(iso_count_.data(), 0, sizeof(unsigned long long)));
    FHN_CUDA_CHECK(cudaMemset(iso_excited_.data(), 0, count * sizeof(unsigned long long)));
    straddling_kernel<<<blocks_for(static_cast<index_t>(entries())), kBlock>>>(
        view(), domain_.nodes[0], domain_.nodes[1], v_.data(), w_.data(), iso_levels_.data(),
        iso_found_.data(), iso_found_.size(), iso_count_.data(), iso_excited_.data());
    FHN_CUDA_CHECK_LAUNCH();
    iso_count_.download(&found, 1);
    if (found <= iso_found_.size()) break;
    iso_found_ = DeviceBuffer<MemberCell>(static_cast<std::size_t>(found) + found / 4, "sweep iso cells");
  }
  std::vector<MemberCell> all(static_cast<std::size_t>(found));
  if (found > 0) iso_found_.download(all.data(), all.size());
  std::vector<unsigned long long> counted(count);
  iso_excited_.download(counted.data(), counted.size());
  // Cell order within each member (the counter's order is the device's).
  std::sort(all.begin(), all.end(), [](const MemberCell& a, const MemberCell& b) {
    return a.member != b.member ? a.member < b.member
           : a.cell.j != b.cell.j ? a.cell.j < b.cell.j
                                  : a.cell.i < b.cell.i;
  });
  cells.assign(count, {});
  for (const MemberCell& c : all) cells[static_cast<std::size_t>(c.member)].push_back(c.cell);
  excited.assign(counted.begin(), counted.end());
}

void MemberBatchCuda::check_finite() {
  FHN_CUDA_CHECK(
      cudaMemset(first_bad_.data(), 0xff, first_bad_.size() * sizeof(unsigned long long)));
  first_non_finite_kernel<<<blocks_for(static_cast<index_t>(entries())), kBlock>>>(
      view(), v_.data(), w_.data(), frozen_.data(), first_bad_.data());
  FHN_CUDA_CHECK_LAUNCH();
  std::vector<unsigned long long> bad(first_bad_.size());
  first_bad_.download(bad.data(), bad.size());
  for (index_t m = 0; m < members_; ++m) {
    const unsigned long long node = bad[static_cast<std::size_t>(m)];
    if (node >= static_cast<unsigned long long>(n_) || frozen_host_[m]) continue;
    freeze(m);
    Snapshot snap;
    snapshot(m, snap);
    const auto i = static_cast<std::size_t>(node);
    failures_.push_back(
        {m, step_,
         "the solution stopped being finite: v = " + format_exact(snap.v[i]) + ", w = " +
             format_exact(snap.w[i]) + " at " +
             domain_.describe_node(static_cast<index_t>(node)) + ", appeared between t = " +
             format_exact(time_.t(last_check_)) + " and t = " +
             format_exact(time_.t(step_)) + " (steps " +
             std::to_string(last_check_) + " to " + std::to_string(step_) + ")"});
  }
  last_check_ = step_;
}

}  // namespace fhn::cuda


namespace fhn {

std::unique_ptr<MemberBatch> make_cuda_member_batch(const std::vector<Problem>& problems,
                                                    const SchemeSpec& spec) {
  FHN_VERIFY(!problems.empty(), InternalError, "cuda sweep: no members");
  cuda::check_batchable(spec);
  const index_t pitch = (problems.front().domain.node_count() + 1) / 2 * 2;
  FHN_VERIFY(static_cast<double>(pitch) * static_cast<double>(problems.size()) < 2147483648.0,
             DeviceError,
             "cuda sweep: " + std::to_string(problems.size()) + " members of " +
                 std::to_string(problems.front().domain.node_count()) +
                 " nodes exceed 2^31 nodes in one batch; split the sweep into smaller batches");
  cuda::require_device();
  if (spec.type == SchemeType::explicit_euler)
    return cuda::make_explicit_members_cuda(problems, spec);
  if (spec.crank_nicolson.formulation == Formulation::adi)
    return cuda::make_adi_members_cuda(problems, spec);
  return cuda::make_crank_nicolson_members_cuda(problems, spec);
}

}  // namespace fhn
