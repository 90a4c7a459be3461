// The GPU half of `fhn bench`: copy bandwidth, tridiagonal solves (ours and cuSPARSE's, with and
// without host-device transfers; the launch floor beside them), batched tridiagonal solves (ours
// and cuSPARSE's, the lines of a square sheet in both layouts), explicit steps (one and several
// per pass) on a cable and on a sheet, and Crank-Nicolson Newton iterations, each checked against
// the CPU before it is timed.
// Times are CUDA-event medians on the default stream.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/bench_data.hpp"
#include "config/loader.hpp"
#include "core/format.hpp"
#include "model/tissue.hpp"
#include "study/filaments.hpp"
#include "study/spiral_tips.hpp"
#include "core/cuda/captured_graph.hpp"
#include "core/cuda/device_buffer.hpp"
#include "core/cuda/pinned_buffer.hpp"
#include "core/cuda/stream.hpp"
#include "schemes/crank_nicolson_cpu.hpp"
#include "schemes/cuda_schemes.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/adi_cpu.hpp"
#include "schemes/cuda/explicit_box_kernels.cuh"
#include "schemes/cuda/explicit_kernels.cuh"
#include "schemes/cuda/explicit_sheet_kernels.cuh"
#include "schemes/cuda/explicit_tissue_kernels.cuh"
#include "schemes/node_updates.hpp"
#include "solvers/batched_tridiagonal.hpp"
#include "solvers/cuda/partitioned.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn::bench {
namespace {

using cuda::CapturedGraph;
using cuda::DeviceBuffer;
using cuda::PinnedBuffer;
using cuda::to_device;
using solvers::TridiagonalBackend;

// Times `run()` (work enqueued on the default stream) with CUDA events: two warm-up calls, then
// `repetitions` timed calls, each after an untimed `before()`. Returns the median etc. of
// run-time / per_call_divisor(), the divisor being read after each call (e.g. Newton iterations).
template <class Before, class Run, class Divisor>
Timing time_gpu(int repetitions, Before before, Run run, Divisor divisor) {
  cuda::Event start(cudaEventDefault), stop(cudaEventDefault);
  std::vector<double> times;
  for (int r = -2; r < repetitions; ++r) {
    before();
    FHN_CUDA_CHECK(cudaEventRecord(start, nullptr));
    run();
    FHN_CUDA_CHECK(cudaEventRecord(stop, nullptr));
    FHN_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    FHN_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0) times.push_back(static_cast<double>(ms) / divisor());
  }
  return summarize(times);
}
template <class Before, class Run>
Timing time_gpu(int repetitions, Before before, Run run) {
  return time_gpu(repetitions, before, run, [] { return 1.0; });
}

// A bench row of a blocked pass of k steps: its check, the largest relative difference in v and
// w from k one-step passes from the same state (v, w), and its time per step.
// one_step(in_v, in_w, out_v, out_w, s) runs step s (v3/w3 -> v2/w2 -> v3/w3 ..., the result
// ending in v3/w3); blocked(out_v, out_w) runs the pass from (v, w), checked into v2/w2
// poisoned first (NaN: a node the pass leaves unwritten shows), then timed.
struct BlockedRow {
  double check;
  Timing time;
};
template <class OneStep, class Blocked>
BlockedRow blocked_row(int repetitions, const DeviceBuffer<real>& v, const DeviceBuffer<real>& w,
                       DeviceBuffer<real>& v2, DeviceBuffer<real>& w2, DeviceBuffer<real>& v3,
                       DeviceBuffer<real>& w3, int k, OneStep one_step, Blocked blocked) {
  const std::size_t bytes = v.size() * sizeof(real);
  FHN_CUDA_CHECK(cudaMemcpy(v3.data(), v.data(), bytes, cudaMemcpyDeviceToDevice));
  FHN_CUDA_CHECK(cudaMemcpy(w3.data(), w.data(), bytes, cudaMemcpyDeviceToDevice));
  for (int s = 0; s < k; ++s) {
    one_step(v3.data(), w3.data(), v2.data(), w2.data(), s);
    std::swap(v2, v3);
    std::swap(w2, w3);
  }
  FHN_CUDA_CHECK(cudaMemset(v2.data(), 0xff, bytes));
  FHN_CUDA_CHECK(cudaMemset(w2.data(), 0xff, bytes));
  blocked(v2.data(), w2.data());
  const double check = std::max(max_relative_error(cuda::to_host(v2), cuda::to_host(v3)),
                                max_relative_error(cuda::to_host(w2), cuda::to_host(w3)));
  return {check, time_gpu(repetitions, [] {}, [&] { blocked(v2.data(), w2.data()); },
                          [k] { return static_cast<double>(k); })};
}

// A copy of `values` in pinned host memory (the fastest host-device transfers), for the
// "+transfers" variants.
PinnedBuffer<real> pinned_copy(const std::vector<real>& values) {
  PinnedBuffer<real> out(values.size());
  std::copy(values.begin(), values.end(), out.data());
  return out;
}

struct Context {
  const BenchOptions& options;
  std::vector<BenchRow>& rows;
  std::string device;

  void add(const std::string& kernel, const std::string& variant, index_t n, Timing time,
           double bytes, double check, const std::string& baseline, const std::string& note) {
    rows.push_back({kernel, variant, device, n, time, bytes, check, baseline, note});
  }
};

// Activation times of n nodes recorded at the threshold 0.5, first and last crossings (fhn run's
// activation.vti with output.activation.last), NaN before any crossing: the arrays the explicit
// kernels' fused crossing test writes (schemes/point/activation_point.hpp).
struct BenchActivation {
  explicit BenchActivation(std::size_t n)
      : first(to_device(std::vector<real>(n, std::numeric_limits<real>::quiet_NaN()),
                        "activation (first)")),
        last(to_device(std::vector<real>(n, std::numeric_limits<real>::quiet_NaN()),
                       "activation (last)")) {}
  ActivationArrays arrays() { return {first.data(), last.data(), 0.5}; }
  DeviceBuffer<real> first, last;
};

// Rows "<what>, a planar front" and "<what>, a planar front, activation every step" of `group`:
// pass(v, w, v_next, w_next, act) runs one pass of `steps` steps from the planar front of
// `domain` (front_state: a column of nodes crosses per step, as in a run), without and with
// the activation times recorded; time per step, the outputs checked against each other (bit for
// bit: recording changes no value).
template <class Pass>
void front_rows(Context& ctx, const std::string& group, const std::string& what,
                const Domain& domain, double model, int steps, Pass pass) {
  const State front = front_state(domain);
  const std::size_t n = front.v.size();
  const DeviceBuffer<real> v = to_device(front.v, "v (front)"), w = to_device(front.w, "w (front)");
  DeviceBuffer<real> v_off(n, "v next"), w_off(n, "w next"), v_on(n, "v next"), w_on(n, "w next");
  BenchActivation activation(n);
  pass(v.data(), w.data(), v_off.data(), w_off.data(), ActivationArrays{});
  pass(v.data(), w.data(), v_on.data(), w_on.data(), activation.arrays());
  const double check = std::max(max_relative_error(cuda::to_host(v_on), cuda::to_host(v_off)),
                                max_relative_error(cuda::to_host(w_on), cuda::to_host(w_off)));
  const auto per = [steps] { return static_cast<double>(steps); };
  const Timing off = time_gpu(ctx.options.repetitions, [] {}, [&] {
    pass(v.data(), w.data(), v_off.data(), w_off.data(), ActivationArrays{});
  }, per);
  const Timing on = time_gpu(ctx.options.repetitions, [] {}, [&] {
    pass(v.data(), w.data(), v_on.data(), w_on.data(), activation.arrays());
  }, per);
  const auto index = static_cast<index_t>(n);
  ctx.add(group, what + ", a planar front", index, off, model, 0.0, "",
          "time per step from the planar front v = 1/2 + 1/2 tanh((L/2 - x) / 2), w = 0");
  ctx.add(group, what + ", a planar front, activation every step", index, on, model, check,
          what + ", a planar front",
          "the same with the crossing test fused into the update: a column of nodes crosses");
}

// Does nothing: its launches are the launch floor.
__global__ void empty_kernel() {}

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
    case TridiagonalBackend::thomas:
    case TridiagonalBackend::thomas_partitioned: break;
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
  solvers::PartitionedSolver partitioned(n);
  const int launches = solvers::partitioned::launches(n);
  const std::string kernels = std::to_string(launches) + (launches == 1 ? " kernel" : " kernels");
  {
    const CapturedGraph graph(
        [&](cudaStream_t stream) { partitioned.solve_on(system, x.data(), stream); });
    FHN_CUDA_CHECK(cudaMemset(x.data(), 0xff, bytes));
    restore_rhs();
    graph.launch();
    const double check = max_relative_error(cuda::to_host(x), truth);
    const Timing t = time_gpu(ctx.options.repetitions, restore_rhs, [&] { graph.launch(); });
    ctx.add("tridiagonal", "partitioned, CUDA graph", n, t, solve_bytes, check, baseline,
            kernels + " as one graph");
  }
  // The launch floor in the same run: one empty kernel, and an empty graph of as many kernels
  // as the partitioned solve launches, one after another as the solve's.
  const std::string floor_note = "a floor, not a solve (GB/s as if it moved a solve's bytes): ";
  const Timing one_launch = time_gpu(ctx.options.repetitions, [] {}, [] {
    empty_kernel<<<1, 32>>>();
    FHN_CUDA_CHECK_LAUNCH();
  });
  ctx.add("tridiagonal", "launch floor, empty kernel", n, one_launch, solve_bytes, 0.0, "",
          floor_note + "one kernel of one 32-thread block that does nothing");
  {
    const CapturedGraph graph([&](cudaStream_t stream) {
      for (int k = 0; k < launches; ++k) {
        empty_kernel<<<1, 32, 0, stream>>>();
        FHN_CUDA_CHECK_LAUNCH();
      }
    });
    const Timing replay = time_gpu(ctx.options.repetitions, [] {}, [&] { graph.launch(); });
    ctx.add("tridiagonal", "launch floor, empty graph", n, replay, solve_bytes, 0.0, "",
            floor_note + "a graph of " + kernels + " (as many as the partitioned solve launches)");
  }

  // With transfers: the system from (pinned) host memory, the solution back to the host.
  const PinnedBuffer<real> h_lower = pinned_copy(host.lower), h_diag = pinned_copy(host.diag),
                           h_upper = pinned_copy(host.upper), h_rhs = pinned_copy(host.rhs);
  PinnedBuffer<real> h_x = pinned_copy(host.rhs);
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

// ---- Batched tridiagonal solves --------------------------------------------------------------
// The lines of a sqrt(n) x sqrt(n) sheet (n an even power of two): rows (contiguous systems) and
// columns (interleaved), a shared matrix (constant: read r, write x = 16 B/unknown) or one per
// system (per-system: read l, d, u, r, write x = 40 B/unknown). Ours against the matching
// cuSPARSE routine (gtsv2StridedBatch for rows, gtsvInterleavedBatch for columns), each checked
// against Thomas system by system first. At n = 2^22 also the Newton systems of a sweep's
// members (fhn sweep, configs/sweeps/bench_cn.yaml): 4096 cables of 1001 nodes, each member
// padded to 1002 entries (16-byte aligned), per-system coefficients only.
void bench_batched(Context& ctx, index_t n) {
  index_t side = 1;
  while (side * side < n) side *= 2;
  struct Shape {
    std::string name;
    solvers::BatchLayout layout;
    bool columns;
  };
  std::vector<Shape> shapes;
  if (side * side == n) {
    shapes.push_back({"rows", solvers::BatchLayout::rows(side, side), false});
    shapes.push_back({"columns", solvers::BatchLayout::columns(side, side), true});
  }
  if (n == index_t{1} << 22) shapes.push_back({"members", {1001, 4096, 1, 1002}, false});
  for (const Shape& shape_entry : shapes) {
    const solvers::BatchLayout& layout = shape_entry.layout;
    const bool columns = shape_entry.columns;
    const bool members = shape_entry.name == "members";
    const std::size_t span = static_cast<std::size_t>(layout.span());
    const std::size_t bytes = span * sizeof(real);
    const index_t unknowns = layout.n * layout.count;
    const HostBatch batch = random_batch(layout, 20261203u + static_cast<unsigned>(n));
    const HostSystem& m = batch.matrix;
    DeviceBuffer<real> lower = to_device(batch.systems.lower, "batch lower"),
                       diag = to_device(batch.systems.diag, "batch diag"),
                       upper = to_device(batch.systems.upper, "batch upper"),
                       rhs = to_device(batch.systems.rhs, "batch rhs");
    DeviceBuffer<real> x(span, "batch solution");
    auto restore_rhs = [&] {
      FHN_CUDA_CHECK(cudaMemcpyAsync(x.data(), rhs.data(), bytes, cudaMemcpyDeviceToDevice));
    };
    const std::string& shape = shape_entry.name;
    const std::string routine = columns ? "gtsvInterleavedBatch" : "gtsv2StridedBatch";
    for (const bool constant : {true, false}) {
      if (constant && members) continue;  // a sweep's Jacobians differ per member
      const std::vector<real> truth = batch_thomas_solution(batch, constant);
      const std::string kind = constant ? ", constant" : ", per-system";
      const std::string baseline = "cusparse " + shape + kind;
      const double model = (constant ? 16.0 : 40.0) * static_cast<double>(unknowns);
      for (const TridiagonalBackend backend :
           {TridiagonalBackend::partitioned, TridiagonalBackend::cusparse}) {
        const bool ours = backend == TridiagonalBackend::partitioned;
        const std::string name = std::string(ours ? "partitioned " : "cusparse ") + shape + kind;
        auto solver = solvers::make_batched_tridiagonal_solver(backend);
        if (constant) solver->set_matrix(m.lower.data(), m.diag.data(), m.upper.data(), side);
        auto solve = [&] {
          if (constant)
            solver->solve(layout, x.data());
          else
            solver->solve(layout, lower.data(), diag.data(), upper.data(), x.data());
        };
        FHN_CUDA_CHECK(cudaMemset(x.data(), 0xff, bytes));  // NaN pattern
        restore_rhs();
        solve();  // the check (and, for cuSPARSE's constant form, the matrix's replication)
        const double check = max_relative_error(cuda::to_host(x), truth);
        const Timing t = time_gpu(ctx.options.repetitions, restore_rhs, solve);
        const std::string note =
            std::to_string(layout.count) + " systems of " + std::to_string(layout.n) + "; " +
            (ours ? (constant ? "3 kernels, reads r twice: 24 B/unknown"
                              : "3 kernels, reads l, d, u, r twice: 72 B/unknown")
                  : "cusparseD" + routine +
                        (constant ? " on the matrix replicated per system (40 B/unknown)" : ""));
        ctx.add("batched tridiagonal", name, n, t, model, check, ours ? baseline : "", note);
      }
    }
  }
}

// ---- Explicit step ---------------------------------------------------------------------------
void bench_explicit(Context& ctx, index_t n) {
  const Problem problem = bench_problem(n, 7, ctx.options.kinetics);
  const NodeParams q = node_params(problem);
  const Kinetics& kinetics = problem.model.kinetics;
  DeviceBuffer<real> v = to_device(problem.v0, "v"), w = to_device(problem.w0, "w");
  DeviceBuffer<real> v2(static_cast<std::size_t>(n), "v next"), w2(static_cast<std::size_t>(n), "w next");
  DeviceBuffer<real> v3(static_cast<std::size_t>(n), "v next"), w3(static_cast<std::size_t>(n), "w next");
  const StimulusTable no_stimuli;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(real);

  // Check: one step against the CPU node update; kStepsPerPass steps in one pass against as many
  // single steps.
  const State cpu = explicit_reference_step(problem);
  FHN_CUDA_CHECK(cudaMemset(v2.data(), 0xff, bytes));
  cuda::launch_explicit_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, no_stimuli, 0);
  const double check_one = std::max(max_relative_error(cuda::to_host(v2), cpu.v),
                                    max_relative_error(cuda::to_host(w2), cpu.w));
  const int k = cuda::kStepsPerPass;
  const BlockedRow blocked = blocked_row(
      ctx.options.repetitions, v, w, v2, w2, v3, w3, k,
      [&](const real* iv, const real* iw, real* ov, real* ow, int s) {
        cuda::launch_explicit_step(iv, iw, ov, ow, q, kinetics, no_stimuli, s);
      },
      [&](real* ov, real* ow) {
        cuda::launch_explicit_steps_blocked(v.data(), w.data(), ov, ow, q, kinetics, no_stimuli, 0,
                                            k);
      });

  // Every call reads v, w and writes the other pair; up to 2^20 nodes (32 MB) the arrays stay in
  // the L2 cache, as they do between the steps of a run of that size.
  const Timing one = time_gpu(ctx.options.repetitions, [] {}, [&] {
    cuda::launch_explicit_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, no_stimuli, 0);
  });
  ctx.add("explicit step", "one step per pass", n, one, 32.0 * static_cast<double>(n), check_one,
          "", "read v, w; write v, w: 32 B/node");
  ctx.add("explicit step", std::to_string(k) + " steps per pass", n, blocked.time,
          32.0 * static_cast<double>(n), blocked.check, "one step per pass",
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
  const Problem problem = bench_problem(n, 11, ctx.options.kinetics);
  CrankNicolsonSpec spec;
  // The oracle: one step of the CPU scheme with Thomas (skipped above cpu_max_n: then the first
  // GPU variant, the separate-kernel cuSPARSE path, is the reference).
  std::vector<real> reference;
  if (n <= ctx.options.cpu_max_n) {
    spec.tridiagonal = TridiagonalBackend::thomas;
    CrankNicolsonCpu cpu(problem, spec, nullptr);
    reference = v_after_one_step(cpu);
  }
  // steps: per timed call. A run advances a frame's steps per call; the whole cable defers each
  // step's w+ = p + c u to the next step's start, and writes it once at the call's end.
  struct Variant {
    const char* name;
    TridiagonalBackend solver;
    bool graphs;
    index_t steps;
  };
  const Variant variants[] = {
      {"separate kernels + cusparse gtsv2_nopivot", TridiagonalBackend::cusparse, false, 1},
      {"fused partitioned, kernel launches", TridiagonalBackend::partitioned, false, 1},
      {"fused partitioned, CUDA graphs", TridiagonalBackend::partitioned, true, 1},
      {"fused partitioned, CUDA graphs, 8 steps per call", TridiagonalBackend::partitioned, true,
       8}};
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
        ctx.options.repetitions, [&] { before = total_iterations(); },
        [&] { scheme->advance(variant.steps); }, [&] { return total_iterations() - before; });
    ctx.add("newton iteration", variant.name, n, t, 32.0 * static_cast<double>(n), check, "partitioned",
            "whole steps / their iterations (a step's start, its accept and one sync each "
            "included); speed-up is against one partitioned solve; floor: read u, p, rhs, write "
            "u = 32 B/node");
  }
}

// ---- A Crank-Nicolson step on a sheet -----------------------------------------------------------
// Steps per timed call of an ADI scheme, and the time per step reported: a run advances many
// steps per call (a frame's), in which a step's second reaction half-step and the next step's
// first share one pass (AdiCuda::advance); 8 steps take 9 passes, one host sync.
constexpr index_t kAdiStepsPerCall = 8;

// The sheet of bench_sheet_explicit (bench_sheet_problem, no stimulus): a step by Strang
// splitting + Peaceman-Rachford ADI with each batched solver (one reaction pass of two
// half-steps, two right sides, two constant-matrix solves: 96 B/node, 64 where the partitioned
// solves form the right sides; the time per step of kAdiStepsPerCall steps and one host
// synchronisation for the reaction Newton log), against the explicit one-step kernel of the
// same run, checked against one step of AdiCpu with batched Thomas first (above cpu_max_n:
// against the first GPU variant).
// Then the same sheet with a tissue mask (the disc obstacle of bench_sheet_tissue): every node's
// own row, per-system solves (adi_setup.hpp).
void bench_sheet_adi(Context& ctx, index_t n) {
  const index_t side = sheet_side(n);
  if (side == 0) return;
  const Problem plain = bench_sheet_problem(side, 17, ctx.options.kinetics);
  Problem masked = plain;
  TissueRegion disc;
  disc.center = {0.5 * plain.domain.length[0], 0.5 * plain.domain.length[0], 0.0};
  disc.radius = 0.25 * plain.domain.length[0];
  masked.fields.node_type = tissue_mask({disc}, plain.domain);
  const Problem* problems[] = {&plain, &masked};
  for (const Problem* problem : problems) {
    const bool mask = problem == &masked;
    CrankNicolsonSpec spec;
    spec.formulation = Formulation::adi;
    std::vector<real> reference;
    if (n <= ctx.options.cpu_max_n) {
      spec.tridiagonal = TridiagonalBackend::thomas;
      AdiCpu cpu(*problem, spec, nullptr);
      reference = v_after_one_step(cpu);
    }
    for (const TridiagonalBackend backend : {TridiagonalBackend::partitioned, TridiagonalBackend::cusparse}) {
      spec.tridiagonal = backend;
      const std::string name = std::string(mask ? "adi step, tissue mask (disc obstacle), " : "adi step, ") +
                               std::string(solvers::backend_name(backend));
      std::unique_ptr<Scheme> scheme = cuda::make_adi_cuda(*problem, spec, nullptr);
      const std::vector<real> after = v_after_one_step(*scheme);
      if (reference.empty()) reference = after;
      const double check = max_relative_error(after, reference);
      const Timing t = time_gpu(
          ctx.options.repetitions, [] {}, [&] { scheme->advance(kAdiStepsPerCall); },
          [] { return static_cast<double>(kAdiStepsPerCall); });
      // The partitioned solves form the plain sheet's right sides as they read v (AdiCuda).
      const bool formed = !mask && backend == TridiagonalBackend::partitioned;
      const double bytes = mask ? 177.0 : formed ? 64.0 : 96.0;
      ctx.add("sheet step", name, n, t, bytes * static_cast<double>(n), check,
              "explicit, one step per pass",
              mask ? "per step of 8 a call (one host sync); floor: 1 reaction pass (33 B/node, "
                     "the quadrant byte), 2 right sides (32 B/node each: v and two coefficients "
                     "in, one value out) and 2 per-system solves (40 B/node each: 3 coefficients "
                     "and the right side in, x out) = 177 B/node"
              : formed ? "per step of 8 a call (one host sync); floor: 1 reaction pass (32 B/node), "
                         "2 constant-matrix solves forming their right sides from v as they read "
                         "it (16 B/node each) = 64 B/node"
                       : "per step of 8 a call (one host sync); floor: 1 reaction pass (32 B/node), "
                         "2 right sides and 2 constant-matrix solves (16 B/node each) = 96 B/node");
    }
  }
}

// ---- The explicit step on a sheet --------------------------------------------------------------
// A sqrt(n) x sqrt(n) sheet (n an even power of two, from 2^10), dx = 0.5, dt = 0.05 (0.8 of the
// explicit limit dx^2 / (4 D)), no-flux sides, the smooth noisy state of pulse_state. One step per
// pass (32 B/node: read v, w, write v+, w+; the baseline) and the blocked kernel at each even depth
// up to kExplicitSheetMaxSteps (odd depths pay the next even halo), per step; then the scheme's
// depth with a stimulus on a quarter of the sheet (the kernel's stimulus variant). Checked first:
// one step against the CPU node update (point_2d.hpp explicit_update) at every node, each blocked
// pass against as many one-step passes.
void bench_sheet_explicit(Context& ctx, index_t n) {
  const index_t side = sheet_side(n);
  if (side == 0) return;
  Stimulus quarter;  // on a quarter of the sheet for the whole run
  quarter.x_max = quarter.y_max = 0.25 * static_cast<real>(side - 1);
  quarter.start = 0.0;
  quarter.duration = 1e9;
  quarter.amplitude = 0.3;
  const Problem problem = bench_sheet_problem(side, 19, ctx.options.kinetics, {quarter});
  const NodeParams q = node_params(problem);
  const Kinetics& kinetics = problem.model.kinetics;
  const cuda::DeviceStimuli stimuli(problem.stimuli);
  const StimulusTable none{};
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(real);
  const double model = 32.0 * static_cast<double>(n);
  DeviceBuffer<real> v = to_device(problem.v0, "v"), w = to_device(problem.w0, "w");
  const auto count = static_cast<std::size_t>(n);
  DeviceBuffer<real> v2(count, "v next"), w2(count, "w next"), v3(count, "v next"),
      w3(count, "w next");

  // One step against the CPU node update.
  std::vector<real> cpu_v(static_cast<std::size_t>(n)), cpu_w(static_cast<std::size_t>(n));
  with_kinetics(kinetics, [&](const auto& kin) {
    for (index_t j = 0; j < side; ++j)
      for (index_t i = 0; i < side; ++i) {
        const ExplicitPointUpdate u =
            explicit_update(problem.v0.data(), problem.w0.data(), 0.0, i, j, q, kin);
        cpu_v[static_cast<std::size_t>(i + side * j)] = u.v;
        cpu_w[static_cast<std::size_t>(i + side * j)] = u.w;
      }
  });
  FHN_CUDA_CHECK(cudaMemset(v2.data(), 0xff, bytes));  // NaN pattern
  FHN_CUDA_CHECK(cudaMemset(w2.data(), 0xff, bytes));
  cuda::launch_explicit_sheet_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, none, 0);
  const double check_one = std::max(max_relative_error(cuda::to_host(v2), cpu_v),
                                    max_relative_error(cuda::to_host(w2), cpu_w));
  const Timing one = time_gpu(ctx.options.repetitions, [] {}, [&] {
    cuda::launch_explicit_sheet_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, none, 0);
  });
  const std::string baseline = "explicit, one step per pass";
  ctx.add("sheet step", baseline, n, one, model, check_one, "",
          "read v, w; write v+, w+: 32 B/node; 32 x 8 threads over 64 x 8 nodes");

  // A blocked pass of k steps against k one-step passes (v3/w3 -> v2/w2 -> v3/w3 ...), timed.
  auto blocked = [&](int k, const StimulusTable& table) {
    return blocked_row(
        ctx.options.repetitions, v, w, v2, w2, v3, w3, k,
        [&](const real* iv, const real* iw, real* ov, real* ow, int s) {
          cuda::launch_explicit_sheet_step(iv, iw, ov, ow, q, kinetics, table, s);
        },
        [&](real* ov, real* ow) {
          cuda::launch_explicit_sheet_steps_blocked(v.data(), w.data(), ov, ow, q, kinetics, table,
                                                    0, k);
        });
  };
  for (int k = 2; k <= cuda::kExplicitSheetMaxSteps; k += 2) {
    const BlockedRow row = blocked(k, none);
    ctx.add("sheet step", "explicit, " + std::to_string(k) + " steps per pass", n, row.time,
            model, row.check, baseline,
            "time per step; 64 x 64 regions in registers, halo " + std::to_string(k) +
                (k == cuda::kExplicitSheetStepsPerPass ? "; the scheme's depth" : ""));
  }
  const int k = cuda::kExplicitSheetStepsPerPass;
  const BlockedRow row = blocked(k, stimuli.view());
  ctx.add("sheet step", "explicit, " + std::to_string(k) + " steps per pass, stimulus on", n,
          row.time, model, row.check, baseline,
          "time per step; a stimulus on a quarter of the sheet (the kernel's stimulus variant)");

  // Activation recorded at every step (the crossing test fused into the update), against the same
  // kernels without: one step per pass (checked against it bit for bit), and the scheme's depth
  // (checked against as many recording one-step passes).
  BenchActivation activation(count);
  const ActivationArrays act = activation.arrays();
  cuda::launch_explicit_sheet_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, none, 0);
  cuda::launch_explicit_sheet_step(v.data(), w.data(), v3.data(), w3.data(), q, kinetics, none, 0,
                                   0, side, nullptr, act);
  const double check_act = std::max(max_relative_error(cuda::to_host(v3), cuda::to_host(v2)),
                                    max_relative_error(cuda::to_host(w3), cuda::to_host(w2)));
  const Timing recorded = time_gpu(ctx.options.repetitions, [] {}, [&] {
    cuda::launch_explicit_sheet_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, none,
                                     0, 0, side, nullptr, act);
  });
  ctx.add("sheet step", "explicit, one step per pass, activation every step", n, recorded, model,
          check_act, baseline,
          "the crossing test of v = 0.5 fused into the update (first and last times: read and "
          "written only where v crosses)");
  const BlockedRow recorded_blocked = blocked_row(
      ctx.options.repetitions, v, w, v2, w2, v3, w3, k,
      [&](const real* iv, const real* iw, real* ov, real* ow, int s) {
        cuda::launch_explicit_sheet_step(iv, iw, ov, ow, q, kinetics, none, s, 0, side, nullptr,
                                         act);
      },
      [&](real* ov, real* ow) {
        cuda::launch_explicit_sheet_steps_blocked(v.data(), w.data(), ov, ow, q, kinetics, none, 0,
                                                  k, 0, side, nullptr, act);
      });
  ctx.add("sheet step", "explicit, " + std::to_string(k) + " steps per pass, activation every step",
          n, recorded_blocked.time, model, recorded_blocked.check,
          "explicit, " + std::to_string(k) + " steps per pass",
          "time per step; the crossing test at every step of the pass, at the nodes it writes");
  front_rows(ctx, "sheet step", "explicit, one step per pass", problem.domain, model, 1,
             [&](const real* iv, const real* iw, real* ov, real* ow, const ActivationArrays& a) {
               cuda::launch_explicit_sheet_step(iv, iw, ov, ow, q, kinetics, none, 0, 0, side,
                                                nullptr, a);
             });
  front_rows(ctx, "sheet step", "explicit, " + std::to_string(k) + " steps per pass",
             problem.domain, model, k,
             [&](const real* iv, const real* iw, real* ov, real* ow, const ActivationArrays& a) {
               cuda::launch_explicit_sheet_steps_blocked(iv, iw, ov, ow, q, kinetics, none, 0, k,
                                                         0, side, nullptr, a);
             });
}

// ---- The explicit step of a sweep's sheets -----------------------------------------------------
// n / 2^16 members of 256 x 256 nodes (fhn sweep of a sheet, the spiral portraits: 1024 members
// at n = 2^26), one launch for all (blockIdx.z = member): the sheet of bench_sheet_explicit
// (dx = 0.5, dt = 0.05, no-flux sides) in every member, member m with D (1 + m / 1024). One
// step per pass (32 B/node; the baseline) and the blocked kernel at the batch's depth and its
// neighbours, per step. Checked first: one step of the first and last members against the
// single-sheet kernel with their parameters, and each blocked pass against as many one-step
// passes of the batch.
void bench_sheet_members(Context& ctx, index_t n) {
  constexpr index_t kSide = 256, kNodes = kSide * kSide;
  if (n < kNodes || n % kNodes != 0) return;
  const index_t members = n / kNodes;
  const Problem problem = bench_sheet_problem(kSide, 23, ctx.options.kinetics, {});
  const NodeParams q = node_params(problem);
  const Kinetics& form = problem.model.kinetics;
  std::vector<NodeParams> params(static_cast<std::size_t>(members), q);
  for (index_t m = 0; m < members; ++m)
    params[static_cast<std::size_t>(m)].r = q.r * (1.0 + static_cast<real>(m) / 1024.0);
  const DeviceBuffer<NodeParams> params_d = to_device(params, "member parameters");
  DeviceBuffer<unsigned char> kinetics_d;
  with_kinetics(form, [&](const auto& kin) {
    using K = std::decay_t<decltype(kin)>;
    const std::vector<K> each(static_cast<std::size_t>(members), kin);
    kinetics_d = DeviceBuffer<unsigned char>(each.size() * sizeof(K), "member kinetics");
    kinetics_d.upload(reinterpret_cast<const unsigned char*>(each.data()), each.size() * sizeof(K));
  });
  const DeviceBuffer<int> frozen = to_device(std::vector<int>(static_cast<std::size_t>(members), 0),
                                             "member frozen flags");
  const cuda::MemberArrays batch{members, kNodes, params_d.data(), kinetics_d.data(), frozen.data()};
  const auto count = static_cast<std::size_t>(n);
  const std::size_t bytes = count * sizeof(real);
  DeviceBuffer<real> v(count, "v"), w(count, "w"), v2(count, "v next"), w2(count, "w next"),
      v3(count, "v next"), w3(count, "w next");
  for (index_t m = 0; m < members; ++m) {
    const std::size_t at = static_cast<std::size_t>(m * kNodes);
    FHN_CUDA_CHECK(cudaMemcpy(v.data() + at, problem.v0.data(), kNodes * sizeof(real), cudaMemcpyHostToDevice));
    FHN_CUDA_CHECK(cudaMemcpy(w.data() + at, problem.w0.data(), kNodes * sizeof(real), cudaMemcpyHostToDevice));
  }
  const StimulusTable none{};
  const double model = 32.0 * static_cast<double>(n);

  // One step of the batch; the first and last members against the single-sheet kernel.
  FHN_CUDA_CHECK(cudaMemset(v2.data(), 0xff, bytes));  // NaN pattern
  FHN_CUDA_CHECK(cudaMemset(w2.data(), 0xff, bytes));
  cuda::launch_explicit_sheet_members_step(v.data(), w.data(), v2.data(), w2.data(), q, batch, form, none, 0);
  const std::vector<real> batch_v = cuda::to_host(v2), batch_w = cuda::to_host(w2);
  double check_one = 0.0;
  for (const index_t m : {index_t{0}, members - 1}) {
    const std::size_t at = static_cast<std::size_t>(m * kNodes);
    cuda::launch_explicit_sheet_step(v.data() + at, w.data() + at, v3.data(), w3.data(),
                                     params[static_cast<std::size_t>(m)], form, none, 0);
    const std::vector<real> single_v = cuda::to_host(v3), single_w = cuda::to_host(w3);
    check_one = std::max({check_one,
                          max_relative_error(std::vector<real>(batch_v.begin() + at, batch_v.begin() + at + kNodes),
                                             std::vector<real>(single_v.begin(), single_v.begin() + kNodes)),
                          max_relative_error(std::vector<real>(batch_w.begin() + at, batch_w.begin() + at + kNodes),
                                             std::vector<real>(single_w.begin(), single_w.begin() + kNodes))});
  }
  const Timing one = time_gpu(ctx.options.repetitions, [] {}, [&] {
    cuda::launch_explicit_sheet_members_step(v.data(), w.data(), v2.data(), w2.data(), q, batch, form, none, 0);
  });
  const std::string what = std::to_string(members) + " members of 256 x 256";
  const std::string baseline = "explicit, one step per pass";
  ctx.add("sweep sheet step", baseline, n, one, model, check_one, "",
          what + "; read v, w; write v+, w+: 32 B/node");

  for (const int k : {4, cuda::kExplicitSheetStepsPerPass, 8}) {
    const BlockedRow row = blocked_row(
        ctx.options.repetitions, v, w, v2, w2, v3, w3, k,
        [&](const real* iv, const real* iw, real* ov, real* ow, int s) {
          cuda::launch_explicit_sheet_members_step(iv, iw, ov, ow, q, batch, form, none, s);
        },
        [&](real* ov, real* ow) {
          cuda::launch_explicit_sheet_members_blocked(v.data(), w.data(), ov, ow, q, batch, form,
                                                      none, 0, k);
        });
    ctx.add("sweep sheet step", "explicit, " + std::to_string(k) + " steps per pass", n,
            row.time, model, row.check,
            baseline,
            what + "; time per step" + (k == cuda::kExplicitSheetStepsPerPass ? "; the batch's depth" : ""));
  }
}

// ---- The split Crank-Nicolson step of a sweep's sheets ----------------------------------------
// The members of bench_sheet_members (n / 2^16 sheets of 256 x 256) as fhn sweep runs them with
// scheme.crank_nicolson.formulation: adi (adi_members_cuda.cu), per step of kAdiStepsPerCall a
// call (one host synchronisation for the reaction logs), against the explicit one-step kernel of
// the members. Two sweeps: every member with the same D (the kinetics sweeps of the portraits)
// and D per member (the partitioned solver takes each member's line matrices: still one solve of
// every member's rows and one of every member's columns per step). Checked first: one step of the
// first and last members against the single-sheet AdiCuda with their problems.
void bench_sheet_members_adi(Context& ctx, index_t n) {
  constexpr index_t kSide = 256, kNodes = kSide * kSide;
  if (n < kNodes || n % kNodes != 0) return;
  const index_t members = n / kNodes;
  const Problem problem = bench_sheet_problem(kSide, 23, ctx.options.kinetics, {});
  SchemeSpec scheme;
  scheme.type = SchemeType::crank_nicolson;
  scheme.backend = Backend::cuda;
  scheme.crank_nicolson.formulation = Formulation::adi;
  scheme.crank_nicolson.tridiagonal = TridiagonalBackend::partitioned;
  const std::string what = std::to_string(members) + " members of 256 x 256";
  for (const bool own_d : {false, true}) {
    std::vector<Problem> problems(static_cast<std::size_t>(members), problem);
    if (own_d)
      for (index_t m = 0; m < members; ++m)
        problems[static_cast<std::size_t>(m)].model.diffusion *= 1.0 + static_cast<real>(m) / 1024.0;
    const std::unique_ptr<MemberBatch> batch = make_cuda_member_batch(problems, scheme);
    batch->advance(1);
    double check = 0.0;
    for (const index_t m : {index_t{0}, members - 1}) {
      Snapshot member;
      batch->snapshot(m, member);
      const std::unique_ptr<Scheme> single = cuda::make_adi_cuda(
          problems[static_cast<std::size_t>(m)], scheme.crank_nicolson, nullptr);
      check = std::max(check, max_relative_error(member.v, v_after_one_step(*single)));
    }
    const Timing t = time_gpu(
        ctx.options.repetitions, [] {}, [&] { batch->advance(kAdiStepsPerCall); },
        [] { return static_cast<double>(kAdiStepsPerCall); });
    ctx.add("sweep sheet step", own_d ? "adi step, D per member" : "adi step", n, t,
            96.0 * static_cast<double>(n), check, "explicit, one step per pass",
            what + (own_d ? ", each with its own D (line matrices)" : ", one D") +
                "; per step of 8 a call (one host sync); floor: 1 reaction pass (32 B/node), 2 "
                "right sides and 2 constant-matrix solves (16 B/node each) = 96 B/node");
  }
}

// ---- The explicit step on a box -------------------------------------------------------------
// A cube of n nodes (n a power of 8 from 2^12: 16^3 ... 512^3 at 2^27), dx = 0.5, dt at most 0.8
// of the explicit limit, no-flux faces, the state pulse_state(n) in node order: one step per
// pass (read v, w, write v+, w+: 32 B/node). Checked first: one step against the CPU's node
// update (point_3d.hpp explicit_update) at every node, bit for bit (the kernel has no FMA
// contraction).
// Then the blocked kernel at depths 2 .. kExplicitBoxMaxSteps, time per step, each checked
// against as many one-step passes, bit for bit.
void bench_box_explicit(Context& ctx, index_t n) {
  const index_t side = box_side(n);
  if (side == 0) return;
  const Problem problem = bench_box_problem(side, 23, ctx.options.kinetics);
  const NodeParams q = node_params(problem);
  const Kinetics& kinetics = problem.model.kinetics;
  const StimulusTable none{};
  const auto count = static_cast<std::size_t>(n);
  DeviceBuffer<real> v = to_device(problem.v0, "v"), w = to_device(problem.w0, "w");
  DeviceBuffer<real> v2(count, "v next"), w2(count, "w next");
  const State cpu = explicit_reference_step(problem);
  FHN_CUDA_CHECK(cudaMemset(v2.data(), 0xff, count * sizeof(real)));  // NaN pattern
  FHN_CUDA_CHECK(cudaMemset(w2.data(), 0xff, count * sizeof(real)));
  cuda::launch_explicit_box_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, none, 0,
                                 nullptr);
  const double check = std::max(max_relative_error(cuda::to_host(v2), cpu.v),
                                max_relative_error(cuda::to_host(w2), cpu.w));
  const Timing one = time_gpu(ctx.options.repetitions, [] {}, [&] {
    cuda::launch_explicit_box_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, none, 0,
                                   nullptr);
  });
  const std::string baseline = "explicit, one step per pass";
  const double model = 32.0 * static_cast<double>(n);
  ctx.add("box step", baseline, n, one, model, check, "",
          "read v, w; write v+, w+: 32 B/node; 32 x 16 columns a block streamed 16 planes "
          "along z, copied ahead into shared memory (cp.async)");

  // The blocked kernel at each depth, checked against as many one-step passes, then timed per
  // step.
  DeviceBuffer<real> v3(count, "v (one-step)"), w3(count, "w (one-step)");
  for (int k = 2; k <= cuda::kExplicitBoxMaxSteps; ++k) {
    const BlockedRow row = blocked_row(
        ctx.options.repetitions, v, w, v2, w2, v3, w3, k,
        [&](const real* iv, const real* iw, real* ov, real* ow, int s) {
          cuda::launch_explicit_box_step(iv, iw, ov, ow, q, kinetics, none, s, nullptr);
        },
        [&](real* ov, real* ow) {
          cuda::launch_explicit_box_steps_blocked(v.data(), w.data(), ov, ow, q, kinetics, none,
                                                  0, k, nullptr);
        });
    ctx.add("box step", "explicit, " + std::to_string(k) + " steps per pass", n, row.time, model,
            row.check, baseline,
            "time per step; 2.5-D blocking: 64 x 32 column tiles streamed along z, halo " +
                std::to_string(k) +
                (k == cuda::kExplicitBoxStepsPerPass ? "; the scheme's depth" : ""));
  }

  // Activation recorded at every step (the crossing test fused into the update), against the same
  // kernels without, as on the sheet.
  BenchActivation activation(count);
  const ActivationArrays act = activation.arrays();
  cuda::launch_explicit_box_step(v.data(), w.data(), v3.data(), w3.data(), q, kinetics, none, 0,
                                 nullptr, 0, -1, act);
  const double check_act = std::max(max_relative_error(cuda::to_host(v3), cpu.v),
                                    max_relative_error(cuda::to_host(w3), cpu.w));
  const Timing recorded = time_gpu(ctx.options.repetitions, [] {}, [&] {
    cuda::launch_explicit_box_step(v.data(), w.data(), v2.data(), w2.data(), q, kinetics, none, 0,
                                   nullptr, 0, -1, act);
  });
  ctx.add("box step", "explicit, one step per pass, activation every step", n, recorded, model,
          check_act, baseline,
          "the crossing test of v = 0.5 fused into the update (first and last times: read and "
          "written only where v crosses)");
  const int k = cuda::kExplicitBoxStepsPerPass;
  const BlockedRow recorded_blocked = blocked_row(
      ctx.options.repetitions, v, w, v2, w2, v3, w3, k,
      [&](const real* iv, const real* iw, real* ov, real* ow, int s) {
        cuda::launch_explicit_box_step(iv, iw, ov, ow, q, kinetics, none, s, nullptr, 0, -1, act);
      },
      [&](real* ov, real* ow) {
        cuda::launch_explicit_box_steps_blocked(v.data(), w.data(), ov, ow, q, kinetics, none, 0,
                                                k, nullptr, 0, -1, act);
      });
  ctx.add("box step", "explicit, " + std::to_string(k) + " steps per pass, activation every step",
          n, recorded_blocked.time, model, recorded_blocked.check,
          "explicit, " + std::to_string(k) + " steps per pass",
          "time per step; the crossing test at every level of the pass, at the nodes it writes");
  front_rows(ctx, "box step", "explicit, one step per pass", problem.domain, model, 1,
             [&](const real* iv, const real* iw, real* ov, real* ow, const ActivationArrays& a) {
               cuda::launch_explicit_box_step(iv, iw, ov, ow, q, kinetics, none, 0, nullptr, 0,
                                              -1, a);
             });
  front_rows(ctx, "box step", "explicit, " + std::to_string(k) + " steps per pass",
             problem.domain, model, k,
             [&](const real* iv, const real* iw, real* ov, real* ow, const ActivationArrays& a) {
               cuda::launch_explicit_box_steps_blocked(iv, iw, ov, ow, q, kinetics, none, 0, k,
                                                       nullptr, 0, -1, a);
             });
}

// ---- A Crank-Nicolson step on a box ---------------------------------------------------------------
// The cube of bench_box_explicit: a step by Strang splitting + Douglas's ADI in its increment
// form with each batched solver (one reaction pass of two half-steps that adds the increment,
// 40 B/node, the right side 16, three constant-matrix solves 3 x 16: 104 B/node; the time per
// step of kAdiStepsPerCall steps),
// against the explicit one-step kernel of the same run, checked against one step of AdiCpu with
// batched Thomas (above cpu_max_n: against the first GPU variant).
void bench_box_adi(Context& ctx, index_t n) {
  const index_t side = box_side(n);
  if (side == 0) return;
  const Problem problem = bench_box_problem(side, 23, ctx.options.kinetics);
  CrankNicolsonSpec spec;
  spec.formulation = Formulation::adi;
  std::vector<real> reference;
  if (n <= ctx.options.cpu_max_n) {
    spec.tridiagonal = TridiagonalBackend::thomas;
    AdiCpu cpu(problem, spec, nullptr);
    reference = v_after_one_step(cpu);
  }
  for (const TridiagonalBackend backend : {TridiagonalBackend::partitioned, TridiagonalBackend::cusparse}) {
    spec.tridiagonal = backend;
    std::unique_ptr<Scheme> scheme = cuda::make_adi_cuda(problem, spec, nullptr);
    const std::vector<real> after = v_after_one_step(*scheme);
    if (reference.empty()) reference = after;
    const double check = max_relative_error(after, reference);
    const Timing t = time_gpu(
        ctx.options.repetitions, [] {}, [&] { scheme->advance(kAdiStepsPerCall); },
        [] { return static_cast<double>(kAdiStepsPerCall); });
    ctx.add("box step", "adi step, " + std::string(solvers::backend_name(backend)), n, t,
            104.0 * static_cast<double>(n), check, "explicit, one step per pass",
            "per step of 8 a call (one host sync); floor: 1 reaction pass adding the diffusion's "
            "increment (40 B/node), its right side (16), 3 constant-matrix solves (16 each) = "
            "104 B/node");
  }
}

// ---- The explicit step on a sheet with fields (tissue:, fields:, anisotropy:) -------------------
// The sheet of bench_sheet_explicit without stimulus, one step per pass, in three media: a tissue
// mask (a disc obstacle of a quarter of the side's radius at the centre: the masked kernel, 33
// B/node with the quadrant byte), an anisotropic tensor (D_l = 1, D_t = 0.25, fibres at 30
// degrees: the heterogeneous kernel's 9-point stencil, 33 B/node), and a per-node D (0.5 to 1
// along x: the same kernel, 41 B/node). Each checked first against the CPU's node update at every
// node; the baseline is the unmasked one-step kernel of the same sheet.
void bench_sheet_tissue(Context& ctx, index_t n) {
  const index_t side = sheet_side(n);
  if (side == 0) return;
  const Problem plain = bench_sheet_problem(side, 19, ctx.options.kinetics, {});
  const real length = plain.domain.length[0];
  struct Medium {
    std::string variant;
    double bytes;
    Problem problem;
  };
  std::vector<Medium> media(3, Medium{"", 0.0, plain});
  media[0].variant = "explicit, tissue mask (disc obstacle)";
  media[0].bytes = 33.0;
  TissueRegion disc;
  disc.center = {0.5 * length, 0.5 * length, 0.0};
  disc.radius = 0.25 * length;
  media[0].problem.fields.node_type = tissue_mask({disc}, plain.domain);
  media[1].variant = "explicit, anisotropic (fibres at 30 degrees)";
  media[1].bytes = 33.0;
  const real c = std::cos(kTwoPi / 12.0), s = std::sin(kTwoPi / 12.0);
  media[1].problem.fields.tensor = {true, 0.25 + 0.75 * c * c, 0.75 * c * s, 0.25 + 0.75 * s * s,
                                    {}, {}, {}};
  media[2].variant = "explicit, per-node D";
  media[2].bytes = 41.0;
  std::vector<real>& d = media[2].problem.fields.diffusion.values;
  d.resize(static_cast<std::size_t>(n));
  for (index_t node = 0; node < n; ++node)
    d[static_cast<std::size_t>(node)] = 0.5 + 0.5 * static_cast<real>(node % side) /
                                                  static_cast<real>(side - 1);
  const StimulusTable none{};
  const auto count = static_cast<std::size_t>(n);
  for (const Medium& medium : media) {
    const Problem& problem = medium.problem;
    const NodeParams q = node_params(problem);
    const Kinetics& kinetics = problem.model.kinetics;
    const cuda::DeviceFields fields(problem);
    const bool masked = !heterogeneous(problem.fields);
    const MediumView device_medium = fields.medium(problem);
    const std::vector<std::uint8_t> quadrants =
        tissue_quadrants(problem.fields.node_type, problem.domain);
    const cuda::MediumBlocks blocks = cuda::medium_blocks(quadrants, q);
    DeviceBuffer<real> v2(count, "v next"), w2(count, "w next");
    auto step = [&] {
      if (masked)
        cuda::launch_explicit_sheet_masked_step(fields.v(), fields.w(), v2.data(), w2.data(),
                                                fields.quadrants(), q, kinetics, none, 0, nullptr);
      else
        cuda::launch_explicit_sheet_medium_step(fields.v(), fields.w(), v2.data(), w2.data(),
                                                device_medium, blocks, q, kinetics, none, 0,
                                                nullptr);
    };

    MediumView host_medium = medium_constants(problem);
    host_medium.quadrants = quadrants.data();
    if (!problem.fields.diffusion.uniform())
      host_medium.dxx = host_medium.dyy = problem.fields.diffusion.values.data();
    // The CPU's node updates at every node.
    std::vector<real> cpu_v(count), cpu_w(count);
    with_kinetics(kinetics, [&](const auto& kin) {
      for (index_t j = 0; j < side; ++j)
        for (index_t i = 0; i < side; ++i) {
          const ExplicitPointUpdate u =
              masked ? explicit_update(problem.v0.data(), problem.w0.data(), 0.0, i, j, q,
                                       MaskedMedium{quadrants.data()}, kin)
                     : explicit_update(problem.v0.data(), problem.w0.data(), 0.0, i, j, q,
                                       host_medium, field_kinetics(kin, host_medium));
          cpu_v[static_cast<std::size_t>(i + side * j)] = u.v;
          cpu_w[static_cast<std::size_t>(i + side * j)] = u.w;
        }
    });
    FHN_CUDA_CHECK(cudaMemset(v2.data(), 0xff, count * sizeof(real)));  // NaN pattern
    FHN_CUDA_CHECK(cudaMemset(w2.data(), 0xff, count * sizeof(real)));
    step();
    const double check = std::max(max_relative_error(cuda::to_host(v2), cpu_v),
                                  max_relative_error(cuda::to_host(w2), cpu_w));
    ctx.add("sheet step", medium.variant, n, time_gpu(ctx.options.repetitions, [] {}, step),
            medium.bytes * static_cast<double>(n), check, "explicit, one step per pass",
            "one node per thread; read v, w, the quadrant byte" +
                std::string(medium.bytes > 33.0 ? ", D" : "") + "; write v+, w+");
  }
}

// ---- Measurements at their own cadence: tips and filaments against the run's stepping --------
// A whole CUDA explicit scheme (the blocked passes of fhn run) on a rotating wave: a spiral on a
// sqrt(n) x sqrt(n) sheet in spiral_2d.yaml's medium (cubic form, a = 0.01, epsilon = 0.01,
// gamma = 2; dx = 0.5, dt = 0.05; it turns in about 105 time units, so rotation/20 is 105 steps)
// and a scroll ring in a cube of n nodes in scroll_ring_3d.yaml's (Barkley, a = 0.75,
// b = 0.02, eps = 0.02; dx = 0.5, dt = 0.01; about 3.2 a turn: 16 steps). Each is timed
// advancing rotation/20 without, then with, the measurement fhn run takes at that cadence
// (output.tips.every, output.filaments.every): the device's scan for the squares both levels
// cross (Scheme::iso_cells, device_iso_cells.cu), the squares copied back, and the tips solved
// (tips_in_cells) or the filaments joined (join_filaments) on the host. Checked: the device's
// squares are the host scan's of a snapshot, and the wave has one tip (one closed ring).
struct RotatingWave {
  std::string what;
  std::string yaml;  // the config, less its domain
  index_t steps;     // rotation/20
};

void bench_measurements(Context& ctx, index_t n) {
  const index_t box = box_side(n);
  index_t side = 1;
  while (side * side < n) side *= 2;
  std::vector<RotatingWave> waves;
  if (side * side == n && n >= (index_t{1} << 10)) {
    const std::string length = format_exact(0.5 * static_cast<real>(side - 1));
    waves.push_back({"spiral sheet", "model: {a: 0.01, epsilon: 0.01, gamma: 2.0}\n"
                     "domain: {length: [" + length + ", " + length + "], dx: 0.5}\n"
                     "time: {end: 1000, dt: 0.05}\ninitial: {v: {type: spiral, wavelength: 60}, "
                     "w: {type: spiral, wavelength: 60}}\n", 105});
  }
  if (box > 0) {
    const real l = 0.5 * static_cast<real>(box - 1);
    const std::string ring = "{type: scroll_ring, center: [" + format_exact(0.5 * l) + ", " +
                             format_exact(0.5 * l) + ", " + format_exact(0.5 * l) +
                             "], radius: " + format_exact(0.25 * l) + ", wavelength: 10}";
    waves.push_back({"scroll ring box", "model: {form: barkley, a: 0.75, b: 0.02, eps: 0.02}\n"
                     "domain: {length: [" + format_exact(l) + ", " + format_exact(l) + ", " +
                     format_exact(l) + "], dx: 0.5}\ntime: {end: 100, dt: 0.01}\n"
                     "initial: {v: " + ring + ", w: " + ring + "}\n", 16});
  }
  for (const RotatingWave& wave : waves) {
    const Config c = load_config_text(wave.yaml + "scheme: {backend: cuda}\noutput: {probes: []}\n",
                                      "bench.yaml");
    const Problem problem = make_problem(c);
    const std::unique_ptr<Scheme> scheme = make_scheme(problem, c.scheme);
    const bool box_wave = c.domain.dims == 3;
    const real v_iso = box_wave ? c.output.filaments.v_iso : c.output.tips.v_iso;
    const real w_iso = box_wave ? c.output.filaments.w_iso : c.output.tips.w_iso;
    std::vector<IsoCell> squares;
    index_t excited = 0;
    std::size_t found = 0;  // tips, or filaments
    auto measure = [&] {
      scheme->iso_cells(v_iso, w_iso, nullptr, nullptr, squares, excited);
      found = box_wave ? join_filaments(problem.domain, squares, v_iso, w_iso).size()
                       : tips_in_cells(problem.domain, squares, v_iso, w_iso).size();
    };
    scheme->advance(20 * wave.steps);  // a turn: the start settles
    measure();
    std::vector<IsoCell> host;
    scheme->Scheme::iso_cells(v_iso, w_iso, nullptr, nullptr, host, excited);
    bool same = host.size() == squares.size() && found == 1;
    for (std::size_t k = 0; same && k < host.size(); ++k)
      same = host[k].normal == squares[k].normal && host[k].i == squares[k].i &&
             host[k].j == squares[k].j && host[k].k == squares[k].k &&
             std::equal(host[k].v, host[k].v + 4, squares[k].v) &&
             std::equal(host[k].w, host[k].w + 4, squares[k].w);
    const auto per = [&] { return static_cast<double>(wave.steps); };
    const Timing stepping = time_gpu(ctx.options.repetitions, [] {}, [&] {
      scheme->advance(wave.steps);
    }, per);
    const Timing measured = time_gpu(ctx.options.repetitions, [] {}, [&] {
      scheme->advance(wave.steps);
      measure();
    }, per);
    const Timing alone = time_gpu(ctx.options.repetitions, [] {}, measure);
    const std::string run = wave.what + ", explicit scheme, rotation/20 = " +
                            std::to_string(wave.steps) + " steps";
    const std::string what = box_wave ? "filaments" : "tips";
    ctx.add("measurement", run, n, stepping, 32.0 * static_cast<double>(n), 0.0, "",
            "time per step of a call advancing rotation/20 (" + scheme->name() + ")");
    ctx.add("measurement", run + ", " + what + " every call", n, measured,
            32.0 * static_cast<double>(n), same ? 0.0 : 1.0, run,
            "time per step with output." + what + ".every = rotation/20: the device's scan, " +
                std::to_string(host.size()) + " squares copied back, the " + what +
                " found on the host; check 0: the host scan's squares, one " +
                (box_wave ? "ring" : "tip"));
    ctx.add("measurement", wave.what + ", " + what + " alone", n, alone,
            8.0 * static_cast<double>(n), 0.0, "",
            "time per call of the measurement (no stepping): the scan reads v once (8 B/node), w "
            "only where v - v_iso changes sign");
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
    if (options.wanted("tridiagonal") || options.wanted("tridiagonal+transfers"))
      bench_tridiagonal(ctx, n);
    if (options.wanted("batched tridiagonal")) bench_batched(ctx, n);
    if (options.wanted("explicit step")) bench_explicit(ctx, n);
    if (options.wanted("newton iteration")) bench_newton(ctx, n);
    if (options.wanted("sheet step")) {
      bench_sheet_explicit(ctx, n);
      bench_sheet_tissue(ctx, n);
      bench_sheet_adi(ctx, n);
    }
    if (options.wanted("sweep sheet step")) {
      bench_sheet_members(ctx, n);
      bench_sheet_members_adi(ctx, n);
    }
    if (options.wanted("box step")) {
      bench_box_explicit(ctx, n);
      bench_box_adi(ctx, n);
    }
    if (options.wanted("measurement")) bench_measurements(ctx, n);
  }
  return true;
}

}  // namespace fhn::bench
