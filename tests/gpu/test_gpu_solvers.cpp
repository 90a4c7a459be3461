// Every GPU tridiagonal backend (partitioned, cyclic_reduction, cusparse, cusparse_pivot) against the Thomas
// solver, the oracle, on fresh random data.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/cuda/device_buffer.hpp"
#include "core/error.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "solvers/cpu/thomas.hpp"
#include "solvers/tridiagonal.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;
using fhn::cuda::DeviceBuffer;
using fhn::cuda::to_host;
using fhn::solvers::TridiagonalBackend;
using fhn::solvers::TridiagonalSolver;

constexpr TridiagonalBackend gpu_backends[] = {TridiagonalBackend::partitioned,
                                               TridiagonalBackend::cyclic_reduction,
                                               TridiagonalBackend::cusparse,
                                               TridiagonalBackend::cusparse_pivot};

using fhn::test::HostSystem;

// The Crank-Nicolson Jacobian of the cable equation with D = 1, k = 0.1 on a grid of spacing h:
// off-diagonals -D/(2h^2), diagonal 1/k + D/h^2 + f_i, where f_i in [-1, 1] stands for the
// reaction term -f'(u_i)/2; lower[0] = upper[n-1] = 0; random rhs in [-1, 1].
HostSystem crank_nicolson_like(index_t n, real h, std::mt19937_64& rng) {
  const real k = 0.1, diffusion = 1.0;
  const real off = -diffusion / (2.0 * h * h);
  std::uniform_real_distribution<real> unit(-1.0, 1.0);
  HostSystem s;
  s.lower.assign(static_cast<std::size_t>(n), off);
  s.upper.assign(static_cast<std::size_t>(n), off);
  s.lower.front() = 0.0;
  s.upper.back() = 0.0;
  for (index_t i = 0; i < n; ++i) {
    s.diag.push_back(1.0 / k + diffusion / (h * h) + unit(rng));
    s.rhs.push_back(unit(rng));
  }
  return s;
}

// The arrays of a system in device memory.
struct DeviceSystem {
  explicit DeviceSystem(const HostSystem& s)
      : n(s.size()),
        lower(fhn::cuda::to_device(s.lower, "test lower")),
        diag(fhn::cuda::to_device(s.diag, "test diag")),
        upper(fhn::cuda::to_device(s.upper, "test upper")),
        rhs(fhn::cuda::to_device(s.rhs, "test rhs")) {}
  fhn::solvers::TridiagonalSystem view() const {
    return {n, lower.data(), diag.data(), upper.data()};
  }

  index_t n;
  DeviceBuffer<real> lower, diag, upper, rhs;
};

std::vector<real> thomas_solution(const HostSystem& s) {
  std::vector<real> x = s.rhs;
  fhn::solvers::ThomasSolver thomas(s.size());
  thomas.solve({s.size(), s.lower.data(), s.diag.data(), s.upper.data()}, x.data());
  return x;
}

// Solves `s` with `solver` on the device (in place) and copies x back. The synchronisation makes
// failures of the asynchronous kernels surface here, inside the test that caused them.
std::vector<real> gpu_solution(TridiagonalSolver& solver, const HostSystem& s) {
  DeviceSystem device(s);
  solver.solve(device.view(), device.rhs.data());
  FHN_CUDA_CHECK(cudaDeviceSynchronize());
  return to_host(device.rhs);
}

struct Comparison {
  real relative_error = 0.0;  // max_i |x_i - t_i| / max_i |t_i|
  index_t mismatches = 0;     // elements with |x_i - t_i| > tolerance max|t|, NaN included
};

Comparison compare(const std::vector<real>& x, const std::vector<real>& truth, real tolerance) {
  REQUIRE(x.size() == truth.size());
  real scale = 0.0;
  for (const real t : truth) scale = std::max(scale, std::abs(t));
  Comparison c;
  real worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const real error = std::abs(x[i] - truth[i]);
    if (!(error <= tolerance * scale)) ++c.mismatches;  // written so that NaN counts
    worst = std::isnan(error) ? std::numeric_limits<real>::infinity() : std::max(worst, error);
  }
  c.relative_error = worst / scale;
  return c;
}

}  // namespace

TEST_CASE("every GPU backend matches Thomas on random diagonally dominant systems") {
  std::mt19937_64 rng(20261123);
  for (const TridiagonalBackend backend : gpu_backends) {
    for (const index_t n : {index_t{1}, index_t{2}, index_t{3}, index_t{31}, index_t{32},
                            index_t{33}, index_t{1000}, index_t{1024}, index_t{1025},
                            index_t{2047}, index_t{2048}, index_t{2049}, index_t{4097},
                            index_t{65536 + 17}, (index_t{1} << 20) + 3}) {
      CAPTURE(fhn::solvers::backend_name(backend));
      CAPTURE(n);
      const HostSystem s = fhn::test::random_dominant_system(n, rng);
      const auto solver = fhn::solvers::make_tridiagonal_solver(backend, n);
      CHECK(solver->name() == fhn::solvers::backend_name(backend));
      CHECK(solver->space() == fhn::MemorySpace::device);
      const Comparison c = compare(gpu_solution(*solver, s), thomas_solution(s), 1e-12);
      CHECK(c.mismatches == 0);
      CHECK(c.relative_error < 1e-12);
    }
  }
}

TEST_CASE("a GPU solver made for n_max solves every smaller system it is given") {
  std::mt19937_64 rng(11);
  const index_t n_max = 4097;
  for (const TridiagonalBackend backend : gpu_backends) {
    CAPTURE(fhn::solvers::backend_name(backend));
    const auto solver = fhn::solvers::make_tridiagonal_solver(backend, n_max);
    for (const index_t n : {4097, 1, 2, 3, 1000, 33, 4096, 64, 4097}) {
      CAPTURE(n);
      const HostSystem s = fhn::test::random_dominant_system(n, rng);
      const Comparison c = compare(gpu_solution(*solver, s), thomas_solution(s), 1e-12);
      CHECK(c.mismatches == 0);
      CHECK(c.relative_error < 1e-12);
    }
  }
}

TEST_CASE("a GPU solver refuses a system larger than it was made for") {
  std::mt19937_64 rng(12);
  DeviceSystem device(fhn::test::random_dominant_system(101, rng));
  for (const TridiagonalBackend backend : gpu_backends) {
    CAPTURE(fhn::solvers::backend_name(backend));
    const auto solver = fhn::solvers::make_tridiagonal_solver(backend, 100);
    const fhn::solvers::TridiagonalSystem too_large = device.view();
    CHECK_THROWS_WITH_AS(solver->solve(too_large, device.rhs.data()),
                         doctest::Contains("system of size 101"), fhn::InternalError);
    fhn::solvers::TridiagonalSystem empty = device.view();
    empty.n = 0;
    CHECK_THROWS_AS(solver->solve(empty, device.rhs.data()), fhn::InternalError);
  }
}

TEST_CASE("GPU solvers leave the diagonals on the device unchanged") {
  std::mt19937_64 rng(13);
  for (const TridiagonalBackend backend : gpu_backends) {
    for (const index_t n : {2, 3, 33, 4097}) {
      CAPTURE(fhn::solvers::backend_name(backend));
      CAPTURE(n);
      const HostSystem s = fhn::test::random_dominant_system(n, rng);
      DeviceSystem device(s);
      const auto solver = fhn::solvers::make_tridiagonal_solver(backend, n);
      solver->solve(device.view(), device.rhs.data());
      FHN_CUDA_CHECK(cudaDeviceSynchronize());
      CHECK(to_host(device.lower) == s.lower);  // bit for bit
      CHECK(to_host(device.diag) == s.diag);
      CHECK(to_host(device.upper) == s.upper);
    }
  }
}

// Two grids of 2^20+3 nodes: spacing 0.5 as in configs/ (1/k dominates: well conditioned), and a
// domain of length 200 (h ~ 1.9e-4, D/h^2 ~ 2.7e7: condition number ~ 6e6). A correct solver has
// a normwise backward error eta = ||b - A x|| / (||A|| ||x|| + ||b||) of a few units of roundoff
// whatever the conditioning; its distance to Thomas is then bounded by a small multiple of
// kappa u, with kappa <= ||A|| / min_i (|d_i| - |l_i| - |u_i|) (Varah's bound, infinity norm).
TEST_CASE("GPU solvers solve Crank-Nicolson-like systems of 2^20+3 unknowns") {
  std::mt19937_64 rng(14);
  const index_t n = (index_t{1} << 20) + 3;
  const real roundoff = std::numeric_limits<real>::epsilon() / 2.0;
  for (const real h : {0.5, 200.0 / static_cast<real>(n - 1)}) {
    CAPTURE(h);
    const HostSystem s = crank_nicolson_like(n, h, rng);
    const std::vector<real> truth = thomas_solution(s);

    real norm_a = 0.0, min_margin = std::numeric_limits<real>::infinity(), norm_b = 0.0;
    for (index_t i = 0; i < n; ++i) {
      const real off = std::abs(s.lower[i]) + std::abs(s.upper[i]);
      norm_a = std::max(norm_a, std::abs(s.diag[i]) + off);
      min_margin = std::min(min_margin, std::abs(s.diag[i]) - off);
      norm_b = std::max(norm_b, std::abs(s.rhs[i]));
    }
    const real kappa = norm_a / min_margin;
    const real tolerance = std::max(1e-12, 8.0 * kappa * roundoff);
    CAPTURE(kappa);

    for (const TridiagonalBackend backend : gpu_backends) {
      CAPTURE(fhn::solvers::backend_name(backend));
      const auto solver = fhn::solvers::make_tridiagonal_solver(backend, n);
      const std::vector<real> x = gpu_solution(*solver, s);

      // Residual in extended precision, so that its own rounding does not count.
      long double residual = 0.0L;
      real norm_x = 0.0;
      for (index_t i = 0; i < n; ++i) {
        long double r = static_cast<long double>(s.rhs[i]) -
                        static_cast<long double>(s.diag[i]) * x[i];
        if (i > 0) r -= static_cast<long double>(s.lower[i]) * x[i - 1];
        if (i + 1 < n) r -= static_cast<long double>(s.upper[i]) * x[i + 1];
        residual = std::isnan(r) ? r : std::max(residual, std::abs(r));  // NaN sticks
        norm_x = std::max(norm_x, std::abs(x[i]));
      }
      const real eta = static_cast<real>(residual) / (norm_a * norm_x + norm_b);
      CAPTURE(eta);
      CHECK(eta < 1e-13);  // ~900 units of roundoff; a wrong coefficient gives O(1)

      const Comparison c = compare(x, truth, tolerance);
      CHECK(c.mismatches == 0);
      CHECK(c.relative_error < tolerance);
    }
  }
}
