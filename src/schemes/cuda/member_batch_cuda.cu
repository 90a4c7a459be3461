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

// The schemes the cuda sweep batches; ConfigError naming the key otherwise.
void check_batchable(const Config& config, const Problem& problem) {
  const std::string supported =
      "; the cuda sweep supports scheme.type explicit and crank_nicolson with formulation "
      "newton and tridiagonal partitioned or cusparse, on a cable";
  FHN_VERIFY(problem.domain.dims == 1, ConfigError,
             "domain: the cuda sweep runs cables, not sheets" + supported);
  const SchemeSpec& s = config.scheme;
  FHN_VERIFY(s.type == SchemeType::explicit_euler || s.type == SchemeType::crank_nicolson,
             ConfigError,
             "scheme.type: " + name_of(scheme_type_names(), s.type) +
                 " cannot be swept on the cuda backend" + supported);
  if (s.type != SchemeType::crank_nicolson) return;
  FHN_VERIFY(s.crank_nicolson.formulation == Formulation::newton, ConfigError,
             "scheme.crank_nicolson.formulation: " +
                 name_of(formulation_names(), s.crank_nicolson.formulation) +
                 " cannot be swept on the cuda backend" + supported);
  const solvers::TridiagonalBackend backend = s.crank_nicolson.tridiagonal;
  FHN_VERIFY(backend == solvers::TridiagonalBackend::partitioned ||
                 backend == solvers::TridiagonalBackend::cusparse,
             ConfigError,
             "scheme.crank_nicolson.tridiagonal: " + std::string(solvers::backend_name(backend)) +
                 " has no batched GPU form" + supported);
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
             format_exact(snap.w[i]) + " at x = " +
             format_exact(snap.x()[static_cast<index_t>(i)]) + " (node " +
             std::to_string(node) + "), appeared between t = " +
             format_exact(time_.t(last_check_)) + " and t = " +
             format_exact(time_.t(step_)) + " (steps " +
             std::to_string(last_check_) + " to " + std::to_string(step_) + ")"});
  }
  last_check_ = step_;
}

}  // namespace fhn::cuda


namespace fhn {

std::unique_ptr<MemberBatch> make_cuda_member_batch(const std::vector<Config>& configs,
                                                    const std::vector<Problem>& problems) {
  FHN_VERIFY(!configs.empty() && configs.size() == problems.size(), InternalError,
             "cuda sweep: " + std::to_string(configs.size()) + " configs for " +
                 std::to_string(problems.size()) + " problems");
  cuda::check_batchable(configs.front(), problems.front());
  const index_t pitch = (problems.front().domain.node_count() + 1) / 2 * 2;
  FHN_VERIFY(static_cast<double>(pitch) * static_cast<double>(problems.size()) < 2147483648.0,
             DeviceError,
             "cuda sweep: " + std::to_string(problems.size()) + " members of " +
                 std::to_string(problems.front().domain.node_count()) +
                 " nodes exceed 2^31 nodes in one batch; split the sweep into smaller batches");
  cuda::require_device();
  if (configs.front().scheme.type == SchemeType::explicit_euler)
    return cuda::make_explicit_members_cuda(configs, problems);
  return cuda::make_crank_nicolson_members_cuda(configs, problems);
}

}  // namespace fhn
