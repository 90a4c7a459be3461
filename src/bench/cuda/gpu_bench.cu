// The GPU half of `fhn bench`: copy bandwidth, tridiagonal solves (ours and cuSPARSE's, with and
// without host-device transfers), explicit steps (one and several per pass) and Crank-Nicolson
// Newton iterations, each checked against the CPU before it is timed. Times are CUDA-event
// medians on the default stream.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/bench_data.hpp"
#include "core/cuda/device_buffer.hpp"
#include "schemes/crank_nicolson_cpu.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/cuda/explicit_kernels.cuh"
#include "schemes/node_updates.hpp"
#include "solvers/cuda/partitioned.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn::bench {
namespace {

using cuda::DeviceBuffer;
using solvers::TridiagonalBackend;

class Event {
 public:
  Event() { FHN_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// Times `run()` (work enqueued on the default stream) with CUDA events: two warm-up calls, then
// `repetitions` timed calls, each after an untimed `before()`. Returns the median etc. of
// run-time / per_call_divisor(), the divisor being read after each call (e.g. Newton iterations).
template <class Before, class Run, class Divisor>
Timing time_gpu(int repetitions, Before before, Run run, Divisor divisor) {
  Event start, stop;
  std::vector<double> times;
  for (int r = -2; r < repetitions; ++r) {
    before();
    FHN_CUDA_CHECK(cudaEventRecord(start.get(), nullptr));
    run();
    FHN_CUDA_CHECK(cudaEventRecord(stop.get(), nullptr));
    FHN_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0.0f;
    FHN_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    if (r >= 0) times.push_back(static_cast<double>(ms) / divisor());
  }
  return summarize(times);
}
template <class Before, class Run>
Timing time_gpu(int repetitions, Before before, Run run) {
  return time_gpu(repetitions, before, run, [] { return 1.0; });
}

DeviceBuffer<real> to_device(const std::vector<real>& host, const char* what) {
  DeviceBuffer<real> buffer(host.size(), what);
  buffer.upload(host.data(), host.size());
  return buffer;
}

// Pinned host memory (the fastest host-device transfers), for the "+transfers" variants.
class PinnedArray {
 public:
  explicit PinnedArray(const std::vector<real>& values) : size_(values.size()) {
    FHN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), size_ * sizeof(real)));
    std::copy(values.begin(), values.end(), data_);
  }
  ~PinnedArray() { cudaFreeHost(data_); }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  real* data() const { return data_; }

 private:
  real* data_ = nullptr;
  std::size_t size_ = 0;
};

struct Context {
  const BenchOptions& options;
  std::vector<BenchRow>& rows;
  std::string device;

  void add(const std::string& kernel, const std::string& variant, index_t n, Timing time,
           double bytes, double check, const std::string& baseline, const std::string& note) {
    rows.push_back({kernel, variant, device, n, time, bytes, check, baseline, note});
  }
};

// ---- Copy bandwidth: the roofline ----------------------------------------------------------
void bench_copy(Context& ctx, index_t n) {
  DeviceBuffer<real> from = to_device(pulse_state(n, 1).v, "copy source");
  DeviceBuffer<real> to(static_cast<std::size_t>(n), "copy target");
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(real);
  const Timing t = time_gpu(ctx.options.repetitions, [] {}, [&] {
    FHN_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));
  });
  const double check = max_relative_error(cuda::to_host(to), cuda::to_host(from));
  ctx.add("copy", "cudaMemcpy D2D", n, t, 2.0 * static_cast<double>(bytes), check, "",
          "read + write");
}

// ---- One tridiagonal solve -------------------------------------------------------------------
const char* variant_name(TridiagonalBackend backend) {
  switch (backend) {
    case TridiagonalBackend::partitioned: return "partitioned";
    case TridiagonalBackend::cyclic_reduction: return "cyclic_reduction";
    case TridiagonalBackend::cusparse: return "cusparse gtsv2_nopivot";
    case TridiagonalBackend::cusparse_pivot: return "cusparse gtsv2";
    case TridiagonalBackend::thomas: break;
  }
  return "thomas";
}

void bench_tridiagonal(Context& ctx, index_t n) {
  const HostSystem host = random_system(n, 20261122u + static_cast<unsigned>(n));
  const std::vector<real> truth = thomas_solution(host);
  DeviceBuffer<real> lower = to_device(host.lower, "lower"), diag = to_device(host.diag, "diag"),
                     upper = to_device(host.upper, "upper"), rhs = to_device(host.rhs, "rhs");
  DeviceBuffer<real> x(static_cast<std::size_t>(n), "solution");
  const solvers::TridiagonalSystem system{n, lower.data(), diag.data(), upper.data()};
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(real);
  auto restore_rhs = [&] {
    FHN_CUDA_CHECK(cudaMemcpyAsync(x.data(), rhs.data(), bytes, cudaMemcpyDeviceToDevice));
  };
  const double solve_bytes = 40.0 * static_cast<double>(n);  // read l, d, u, b; write x
  const std::string baseline = variant_name(TridiagonalBackend::cusparse);

  for (const TridiagonalBackend backend :
       {TridiagonalBackend::partitioned, TridiagonalBackend::cyclic_reduction,
        TridiagonalBackend::cusparse, TridiagonalBackend::cusparse_pivot}) {
    const std::string name = variant_name(backend);
    std::unique_ptr<solvers::TridiagonalSolver> solver;
    try {
      solver = solvers::make_tridiagonal_solver(backend, n);
    } catch (const DeviceError& e) {  // e.g. cuSPARSE's 32-bit sizes
      ctx.add("tridiagonal", name, n, {}, solve_bytes, 0.0, baseline, std::string("skipped: ") + e.what());
      continue;
    }
    // Check first: poison, solve once, compare with Thomas.
    FHN_CUDA_CHECK(cudaMemset(x.data(), 0xff, bytes));  // NaN pattern
    restore_rhs();
    solver->solve(system, x.data());
    const double check = max_relative_error(cuda::to_host(x), truth);
    const Timing t = time_gpu(ctx.options.repetitions, restore_rhs,
                              [&] { solver->solve(system, x.data()); });
    ctx.add("tridiagonal", name, n, t, solve_bytes, check,
            backend == TridiagonalBackend::cusparse ? "" : baseline,
            backend == TridiagonalBackend::partitioned ? "2 passes: 72 B/unknown" : "");
  }

  // The partitioned solve replayed as a CUDA graph (no launch gaps between its kernels).
  {
    solvers::PartitionedSolver solver(n);
    cudaStream_t stream = nullptr;
    FHN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    FHN_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
    solver.solve_on(system, x.data(), stream);
    FHN_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    FHN_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    FHN_CUDA_CHECK(cudaMemset(x.data(), 0xff, bytes));
    restore_rhs();
    FHN_CUDA_CHECK(cudaGraphLaunch(exec, nullptr));
    const double check = max_relative_error(cuda::to_host(x), truth);
    const Timing t = time_gpu(ctx.options.repetitions, restore_rhs,
                              [&] { FHN_CUDA_CHECK(cudaGraphLaunch(exec, nullptr)); });
    ctx.add("tridiagonal", "partitioned, CUDA graph", n, t, solve_bytes, check, baseline, "");
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
  }

  // With transfers: the system from (pinned) host memory, the solution back to the host.
  const PinnedArray h_lower(host.lower), h_diag(host.diag), h_upper(host.upper), h_rhs(host.rhs);
  const PinnedArray h_x(host.rhs);
  for (const TridiagonalBackend backend : {TridiagonalBackend::partitioned, TridiagonalBackend::cusparse}) {
    const std::string name = std::string(variant_name(backend)) + " +transfers";
    const auto solver = solvers::make_tridiagonal_solver(backend, n);
    auto run = [&] {
      FHN_CUDA_CHECK(cudaMemcpyAsync(lower.data(), h_lower.data(), bytes, cudaMemcpyHostToDevice));
      FHN_CUDA_CHECK(cudaMemcpyAsync(diag.data(), h_diag.data(), bytes, cudaMemcpyHostToDevice));
      FHN_CUDA_CHECK(cudaMemcpyAsync(upper.data(), h_upper.data(), bytes, cudaMemcpyHostToDevice));
      FHN_CUDA_CHECK(cudaMemcpyAsync(x.data(), h_rhs.data(), bytes, cudaMemcpyHostToDevice));
      solver->solve(system, x.data());
      FHN_CUDA_CHECK(cudaMemcpyAsync(h_x.data(), x.data(), bytes, cudaMemcpyDeviceToHost));
    };
    std::fill(h_x.data(), h_x.data() + n, std::nan(""));
    run();
    FHN_CUDA_CHECK(cudaDeviceSynchronize());
    const double check = max_relative_error(std::vector<real>(h_x.data(), h_x.data() + n), truth);
    const Timing t = time_gpu(ctx.options.repetitions, [] {}, run);
    ctx.add("tridiagonal+transfers", name, n, t, solve_bytes, check, variant_name(backend),
            "pinned host memory; speed-up is against the same solver without transfers");
  }
}

// ---- Explicit step ---------------------------------------------------------------------------
void bench_explicit(Context& ctx, index_t n) {
  const Problem problem = bench_problem(n, 7);
  const NodeParams q = node_params(problem.model, problem.boundary, n, problem.dx, problem.dt);
  DeviceBuffer<real> v = to_device(problem.v0, "v"), w = to_device(problem.w0, "w");
  DeviceBuffer<real> v2(static_cast<std::size_t>(n), "v next"), w2(static_cast<std::size_t>(n), "w next");
  DeviceBuffer<real> v3(static_cast<std::size_t>(n), "v next"), w3(static_cast<std::size_t>(n), "w next");
  const StimulusTable no_stimuli;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(real);

  // Check: one step against the CPU node update; kStepsPerPass steps in one pass against as many
  // single steps.
  const State cpu = explicit_reference_step(problem);
  FHN_CUDA_CHECK(cudaMemset(v2.data(), 0xff, bytes));
  cuda::launch_explicit_step(v.data(), w.data(), v2.data(), w2.data(), q, no_stimuli, 0);
  const double check_one = std::max(max_relative_error(cuda::to_host(v2), cpu.v),
                                    max_relative_error(cuda::to_host(w2), cpu.w));
  const int k = cuda::kStepsPerPass;
  FHN_CUDA_CHECK(cudaMemcpy(v3.data(), v.data(), bytes, cudaMemcpyDeviceToDevice));
  FHN_CUDA_CHECK(cudaMemcpy(w3.data(), w.data(), bytes, cudaMemcpyDeviceToDevice));
  for (int s = 0; s < k; ++s) {  // v3/w3 -> v2/w2 -> v3/w3 ...
    cuda::launch_explicit_step(v3.data(), w3.data(), v2.data(), w2.data(), q, no_stimuli, s);
    std::swap(v2, v3);
    std::swap(w2, w3);
  }
  FHN_CUDA_CHECK(cudaMemset(v2.data(), 0xff, bytes));
  cuda::launch_explicit_steps_blocked(v.data(), w.data(), v2.data(), w2.data(), q, no_stimuli, 0, k);
  const double check_blocked = std::max(
      max_relative_error(cuda::to_host(v2), cuda::to_host(v3)),
      max_relative_error(cuda::to_host(w2), cuda::to_host(w3)));

  // Every call reads v, w and writes the other pair; up to 2^20 nodes (32 MB) the arrays stay in
  // the L2 cache, as they do between the steps of a run of that size.
  const Timing one = time_gpu(ctx.options.repetitions, [] {}, [&] {
    cuda::launch_explicit_step(v.data(), w.data(), v2.data(), w2.data(), q, no_stimuli, 0);
  });
  ctx.add("explicit step", "one step per pass", n, one, 32.0 * static_cast<double>(n), check_one,
          "", "read v, w; write v, w: 32 B/node");
  const Timing blocked = time_gpu(
      ctx.options.repetitions, [] {},
      [&] { cuda::launch_explicit_steps_blocked(v.data(), w.data(), v2.data(), w2.data(), q, no_stimuli, 0, k); },
      [&] { return static_cast<double>(k); });
  ctx.add("explicit step", std::to_string(k) + " steps per pass", n, blocked,
          32.0 * static_cast<double>(n), check_blocked, "one step per pass",
          "time per step; temporal blocking in shared memory");
}

// ---- One Newton iteration of a Crank-Nicolson step -------------------------------------------
std::vector<real> v_after_one_step(Scheme& scheme) {
  scheme.advance(1);
  Snapshot s;
  scheme.snapshot(s);
  return s.v;
}

void bench_newton(Context& ctx, index_t n) {
  const Problem problem = bench_problem(n, 11);
  CrankNicolsonSpec spec;
  // The oracle: one step of the CPU scheme with Thomas (skipped above cpu_max_n: then the first
  // GPU variant, the separate-kernel cuSPARSE path, is the reference).
  std::vector<real> reference;
  if (n <= ctx.options.cpu_max_n) {
    spec.tridiagonal = TridiagonalBackend::thomas;
    CrankNicolsonCpu cpu(problem, spec, nullptr);
    reference = v_after_one_step(cpu);
  }
  struct Variant {
    const char* name;
    TridiagonalBackend solver;
    bool graphs;
  };
  const Variant variants[] = {
      {"separate kernels + cusparse gtsv2_nopivot", TridiagonalBackend::cusparse, false},
      {"fused partitioned, kernel launches", TridiagonalBackend::partitioned, false},
      {"fused partitioned, CUDA graphs", TridiagonalBackend::partitioned, true}};
  for (const Variant& variant : variants) {
    spec.tridiagonal = variant.solver;
    std::unique_ptr<Scheme> scheme;
    try {
      scheme = cuda::make_crank_nicolson_cuda(problem, spec, nullptr, variant.graphs);
    } catch (const DeviceError& e) {
      ctx.add("newton iteration", variant.name, n, {}, 32.0 * static_cast<double>(n), 0.0, "partitioned",
              std::string("skipped: ") + e.what());
      continue;
    }
    const std::vector<real> v = v_after_one_step(*scheme);
    if (reference.empty()) reference = v;
    const double check = max_relative_error(v, reference);
    const NewtonStats& stats = *scheme->newton_stats();
    auto total_iterations = [&] { return stats.mean_iterations() * static_cast<double>(stats.steps()); };
    double before = 0.0;
    const Timing t = time_gpu(
        ctx.options.repetitions, [&] { before = total_iterations(); }, [&] { scheme->advance(1); },
        [&] { return total_iterations() - before; });
    ctx.add("newton iteration", variant.name, n, t, 32.0 * static_cast<double>(n), check, "partitioned",
            "a whole step / its iterations (prepare, accept and one sync included); speed-up is "
            "against one partitioned solve; floor: read u, p, rhs, write u = 32 B/node");
  }
}

}  // namespace

bool run_gpu_benchmarks(const BenchOptions& options, std::vector<BenchRow>& rows,
                        std::string& why_not) {
  try {
    cuda::require_device();
  } catch (const DeviceError& e) {
    why_not = e.what();
    return false;
  }
  Context ctx{options, rows, cuda::current_device_name()};
  for (const index_t n : options.sizes) {
    bench_copy(ctx, n);
    bench_tridiagonal(ctx, n);
    bench_explicit(ctx, n);
    bench_newton(ctx, n);
  }
  return true;
}

}  // namespace fhn::bench
