// The CPU part of `fhn bench`: the single-thread copy bandwidth (the roofline of the CPU rows),
// the Thomas solver against LAPACK's dgtsv, its partitioned variant against Thomas, the batched
// Thomas solver against the single-system one, and one step of the explicit scheme. Each
// variant is run once, checked against its reference, then timed.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "bench/bench.hpp"
#include "bench/bench_data.hpp"
#include "bench/lapack.hpp"
#include "model/problem.hpp"
#include "schemes/adi_cpu.hpp"
#include "schemes/explicit_cpu.hpp"
#include "solvers/batched_tridiagonal.hpp"
#include "solvers/cpu/partitioned_thomas.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn::bench {
namespace {

// The seed of the inputs: the same inputs in every run.
constexpr std::uint64_t kSeed = 20240611;

// Elimination without pivoting (the matrix is diagonally dominant) in long double, rounded to
// double: the reference of the tridiagonal variants, independent of the solvers timed.
//   m_i = d_i - l_i c_{i-1},  c_i = u_i / m_i,  y_i = (r_i - l_i y_{i-1}) / m_i,
//   x_{n-1} = y_{n-1},  x_i = y_i - c_i x_{i+1}.
std::vector<real> long_double_solution(const HostSystem& s) {
  const std::size_t n = s.diag.size();
  std::vector<long double> c(n), y(n);
  long double c_before = 0.0L, y_before = 0.0L;
  for (std::size_t i = 0; i < n; ++i) {
    const long double l = s.lower[i];
    const long double m = s.diag[i] - l * c_before;
    c[i] = c_before = s.upper[i] / m;
    y[i] = y_before = (s.rhs[i] - l * y_before) / m;
  }
  std::vector<real> x(n);
  long double x_after = 0.0L;
  for (std::size_t i = n; i-- > 0;) {
    x_after = y[i] - c[i] * x_after;
    x[i] = static_cast<real>(x_after);
  }
  return x;
}

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What the timed calls of one variant at one size may take, so that a size takes about 2 s
// (less below 2^20; at least 3 repetitions make more above 2^22 on a slow machine).
constexpr double kVariantBudgetMs = 300.0;

// Makes `memory` reachable from outside, so that stores to it that the program never reads
// again are not optimised away.
const void* volatile g_escaped = nullptr;
void escape(const void* memory) { g_escaped = memory; }

BenchRow make_row(const std::string& kernel, const std::string& variant, index_t n, double bytes,
                  const std::string& baseline, const std::string& note) {
  BenchRow row;
  row.kernel = kernel;
  row.variant = variant;
  row.device = "cpu";
  row.n = n;
  row.bytes = bytes;
  row.baseline = baseline;
  row.note = note;
  return row;
}

// Runs `prepare` (untimed) and `call` once as a warm-up, records check() (the warm-up's result
// against the reference), then times prepare-and-call pairs, `call` only: max_repetitions of
// them, or fewer (at least 3) when they would take more than kVariantBudgetMs.
template <class Prepare, class Call, class Check>
void measure(BenchRow& row, int max_repetitions, Prepare&& prepare, Call&& call, Check&& check) {
  const Clock::time_point warm_up = Clock::now();
  prepare();
  call();
  const double pair_ms = std::max(milliseconds_since(warm_up), 1e-6);
  row.check = check();

  const double affordable = std::min(kVariantBudgetMs / pair_ms, 1e6);
  const int repetitions =
      std::clamp(static_cast<int>(affordable), std::min(3, max_repetitions), max_repetitions);
  std::vector<double> times_ms;
  for (int r = 0; r < repetitions; ++r) {
    prepare();
    const Clock::time_point start = Clock::now();
    call();
    times_ms.push_back(milliseconds_since(start));
  }
  row.time = summarize(times_ms);
}

// copy: n doubles with std::memcpy; reads and writes 16 n bytes. Source and target are 64-byte
// aligned and half a page apart modulo 4096 bytes: with the target a few bytes past the source
// in the page (as two std::vectors often are), glibc's memcpy runs at 4 GB/s on AMD Zen
// (`rep movsb`), which says nothing about the memory system.
void bench_copy(index_t n, int repetitions, std::vector<BenchRow>& rows) {
  constexpr index_t page = 4096 / sizeof(real), line = 64 / sizeof(real);
  std::vector<real> buffer(static_cast<std::size_t>(2 * n + page + line));
  const auto misalignment = reinterpret_cast<std::uintptr_t>(buffer.data()) % 64 / sizeof(real);
  real* source = buffer.data() + (line - static_cast<index_t>(misalignment)) % line;
  real* target = source + n + (page / 2 - n % page + page) % page;
  for (index_t i = 0; i < n; ++i) source[i] = static_cast<real>(i) + 0.5;
  escape(target);
  BenchRow row = make_row("copy", "memcpy", n, 16.0 * static_cast<double>(n), "",
                          "single-thread std::memcpy, the roofline of the cpu rows (% of copy)");
  measure(
      row, repetitions, [] {},
      [&] { std::memcpy(target, source, static_cast<std::size_t>(n) * sizeof(real)); },
      [&] { return max_relative_error({target, target + n}, {source, source + n}); });
  rows.push_back(row);
}

// tridiagonal: one random diagonally dominant system (lower[0] = upper[n-1] = 0, |diag| >=
// |lower| + |upper| + 1, see bench_data.hpp); the byte model reads lower, diag, upper
// and rhs and writes x (40 n bytes).
void bench_tridiagonal(index_t n, int repetitions, std::vector<BenchRow>& rows) {
  const HostSystem system = random_system(n, kSeed);
  const std::vector<real> reference = long_double_solution(system);
  const double bytes = 40.0 * static_cast<double>(n);
  auto error_of = [&](const std::vector<real>& x) { return max_relative_error(x, reference); };

  // LAPACK dgtsv (partial pivoting) overwrites all four arrays: restored before every call.
  BenchRow lapack = make_row("tridiagonal", "lapack dgtsv", n, bytes, "",
                             "LU with partial pivoting; inputs restored outside the timed region");
  std::string why_not;
  real tiny[4] = {0.0, 1.0, 0.0, 1.0};  // a 1x1 system says whether LAPACK is built in
  if (!lapack_dgtsv(1, &tiny[0], &tiny[1], &tiny[2], &tiny[3], why_not)) {
    lapack.note = why_not;
  } else {
    HostSystem work = system;
    auto restore = [&] {
      std::copy(system.lower.begin(), system.lower.end(), work.lower.begin());
      std::copy(system.diag.begin(), system.diag.end(), work.diag.begin());
      std::copy(system.upper.begin(), system.upper.end(), work.upper.begin());
      std::copy(system.rhs.begin(), system.rhs.end(), work.rhs.begin());
    };
    // dgtsv's sub-diagonal starts at A(1, 0) = lower[1]; its super-diagonal is upper[0..n-2].
    bool solved = true;
    auto solve = [&] {
      solved = lapack_dgtsv(n, work.lower.data() + 1, work.diag.data(), work.upper.data(),
                            work.rhs.data(), why_not);
    };
    auto check = [&] {
      if (solved) return error_of(work.rhs);
      lapack.note = why_not;
      return std::numeric_limits<double>::quiet_NaN();  // FAILED
    };
    measure(lapack, repetitions, restore, solve, check);
  }
  rows.push_back(lapack);

  // Thomas and its partitioned variant overwrite the right side only.
  const solvers::TridiagonalSystem a{n, system.lower.data(), system.diag.data(),
                                     system.upper.data()};
  std::vector<real> x(system.rhs.size());
  auto solve_with = [&](BenchRow row, solvers::TridiagonalBackend backend) {
    auto solver = solvers::make_tridiagonal_solver(backend, n);
    measure(
        row, repetitions, [&] { std::copy(system.rhs.begin(), system.rhs.end(), x.begin()); },
        [&] { solver->solve(a, x.data()); }, [&] { return error_of(x); });
    rows.push_back(row);
  };
  solve_with(make_row("tridiagonal", "thomas", n, bytes, "lapack dgtsv",
                      "two passes move 72 B/unknown (c' and y written, read back)"),
             solvers::TridiagonalBackend::thomas);
  solve_with(make_row("tridiagonal",
                      "thomas partitioned (" +
                          std::to_string(solvers::PartitionedThomasSolver::kLanes) +
                          " chunks at once, one core)",
                      n, bytes, "thomas",
                      "reads the system twice: 72 B/unknown; one Thomas sweep below " +
                          std::to_string(solvers::PartitionedThomasSolver::kLanes *
                                         solvers::PartitionedThomasSolver::kMinChunk) +
                          " unknowns"),
             solvers::TridiagonalBackend::thomas_partitioned);
}

// The side of a square sheet of n nodes, or 0 when n is not a square (an even power of two).
index_t square_side(index_t n) {
  index_t side = 1;
  while (side * side < n) side *= 2;
  return side * side == n ? side : 0;
}

// batched tridiagonal: the lines of a sqrt(n) x sqrt(n) sheet, along x (rows: contiguous
// systems) and along y (columns: interleaved), with the matrix shared by all (constant: read r,
// write x = 16 n bytes) or one per system (per-system: read l, d, u, r, write x = 40 n bytes);
// on one thread and on all. Baseline: the single-system Thomas on one system of n unknowns
// (kernel tridiagonal, same n), so the speed-up compares time per unknown.
void bench_batched(index_t n, int repetitions, std::vector<BenchRow>& rows) {
  const index_t side = square_side(n);
  if (side == 0) return;
  const int threads = omp_get_max_threads();
  for (const bool columns : {false, true}) {
    const solvers::BatchLayout layout = columns ? solvers::BatchLayout::columns(side, side)
                                                : solvers::BatchLayout::rows(side, side);
    const HostBatch batch = random_batch(layout, kSeed);
    const HostSystem& m = batch.matrix;
    const HostSystem& a = batch.systems;
    for (const bool constant : {true, false}) {
      const std::vector<real> reference = batch_thomas_solution(batch, constant);
      auto solver = solvers::make_batched_tridiagonal_solver(solvers::TridiagonalBackend::thomas);
      if (constant) solver->set_matrix(m.lower.data(), m.diag.data(), m.upper.data(), side);
      std::vector<real> x(a.rhs.size());
      auto solve = [&] {
        if (constant)
          solver->solve(layout, x.data());
        else
          solver->solve(layout, a.lower.data(), a.diag.data(), a.upper.data(), x.data());
      };
      for (const int t : {1, threads}) {
        const std::string variant = std::string("thomas ") + (columns ? "columns" : "rows") +
                                    (constant ? ", constant" : ", per-system") + ", " +
                                    std::to_string(t) + (t == 1 ? " thread" : " threads");
        BenchRow row = make_row("batched tridiagonal", variant, n,
                                (constant ? 16.0 : 40.0) * static_cast<double>(n), "thomas",
                                std::to_string(side) + " systems of " + std::to_string(side) +
                                    "; speed-up per unknown over the 1-D thomas");
        omp_set_num_threads(t);
        measure(
            row, repetitions, [&] { std::copy(a.rhs.begin(), a.rhs.end(), x.begin()); }, solve,
            [&] { return max_relative_error(x, reference); });
        omp_set_num_threads(threads);
        rows.push_back(row);
        if (threads == 1) break;
      }
    }
  }
}

// explicit step: one step of the CPU scheme (ExplicitCpu) on a wavy state; reads v, w and writes
// v+, w+ (32 n bytes). The first step is checked against the point layer's explicit_update at
// every node.
void bench_explicit_step(index_t n, int repetitions, const Kinetics& kinetics,
                         std::vector<BenchRow>& rows) {
  const Problem problem = bench_problem(n, kSeed, kinetics);
  ExplicitCpu scheme(problem);
  escape(&scheme);
  BenchRow row = make_row("explicit step", "forward euler", n, 32.0 * static_cast<double>(n), "",
                          "ExplicitCpu::step, the loop of `fhn run` (no stimulus)");
  auto first_step_error = [&] {
    const State reference = explicit_reference_step(problem);
    Snapshot after;
    scheme.snapshot(after);
    return std::max(max_relative_error(after.v, reference.v),
                    max_relative_error(after.w, reference.w));
  };
  measure(row, repetitions, [] {}, [&] { scheme.advance(1); }, first_step_error);
  rows.push_back(row);
}

// box step: a cube of n nodes (bench_box_problem): one explicit step (ExplicitCpu::box_step,
// OpenMP over the planes; 32 n bytes, checked against explicit_update at every node) and one
// Crank-Nicolson step by Douglas's ADI (AdiCpu, batched Thomas; 176 n bytes as on the GPU: two
// reactions, three right sides, three solves), against the explicit step; the ADI step is the
// oracle of the GPU's (its own check is 0: tests/unit/test_box.cpp verifies it). On all the cores
// OpenMP is given; the copy row is one thread's.
void bench_box(index_t n, int repetitions, const Kinetics& kinetics, std::vector<BenchRow>& rows) {
  const index_t side = box_side(n);
  if (side == 0) return;
  const Problem problem = bench_box_problem(side, kSeed, kinetics);
  const std::string threads = std::to_string(omp_get_max_threads()) + " threads";
  ExplicitCpu explicit_scheme(problem);
  escape(&explicit_scheme);
  BenchRow row = make_row("box step", "explicit, one step", n, 32.0 * static_cast<double>(n), "",
                          "ExplicitCpu::box_step on " + threads + "; read v, w, write v+, w+");
  auto first_step_error = [&] {
    const State reference = explicit_reference_step(problem);
    Snapshot after;
    explicit_scheme.snapshot(after);
    return std::max(max_relative_error(after.v, reference.v),
                    max_relative_error(after.w, reference.w));
  };
  measure(row, repetitions, [] {}, [&] { explicit_scheme.advance(1); }, first_step_error);
  rows.push_back(row);

  CrankNicolsonSpec spec;
  spec.formulation = Formulation::adi;
  spec.tridiagonal = solvers::TridiagonalBackend::thomas;
  AdiCpu adi(problem, spec, nullptr);
  escape(&adi);
  BenchRow adi_row = make_row("box step", "adi step, thomas", n, 176.0 * static_cast<double>(n),
                              "explicit, one step",
                              "AdiCpu (Douglas) on " + threads + "; 2 reactions (32 B/node), 3 "
                              "right sides (16, 24, 24), 3 solves (16 each)");
  measure(adi_row, repetitions, [] {}, [&] { adi.advance(1); }, [] { return 0.0; });
  rows.push_back(adi_row);
}

}  // namespace

void run_cpu_benchmarks(const BenchOptions& options, std::vector<BenchRow>& rows) {
  for (const index_t n : options.sizes) {
    if (n > options.cpu_max_n) continue;
    bench_copy(n, options.repetitions, rows);
    if (options.wanted("tridiagonal")) bench_tridiagonal(n, options.repetitions, rows);
    if (options.wanted("batched tridiagonal")) bench_batched(n, options.repetitions, rows);
    if (options.wanted("explicit step"))
      bench_explicit_step(n, options.repetitions, options.kinetics, rows);
    if (options.wanted("box step")) bench_box(n, options.repetitions, options.kinetics, rows);
  }
}

}  // namespace fhn::bench
