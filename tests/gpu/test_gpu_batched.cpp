// Every batched GPU backend (partitioned, cusparse) against the single-system Thomas solver
// applied system by system: both layouts, both kinds of coefficients, odd sizes and counts,
// fresh random diagonally dominant systems. Inputs are checked untouched and the entries between
// systems unwritten; the solvers' workspace is poisoned first by a solve of NaN right sides.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/cuda/device_buffer.hpp"
#include "core/error.hpp"
#include "solvers/batched_tridiagonal.hpp"
#include "solvers/cpu/thomas.hpp"
#include "solvers/cuda/batched_partitioned.hpp"
#include "batched_support.hpp"
#include "formed_right.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;
using fhn::cuda::DeviceBuffer;
using fhn::solvers::BatchLayout;
using fhn::solvers::TridiagonalBackend;
using fhn::cuda::to_device;
using fhn::cuda::to_host;
using fhn::test::HostBatch;
using fhn::test::HostSystem;
using fhn::test::make_batch;
using fhn::test::reference;
using fhn::test::same_bits;
using fhn::test::worst_relative_error;

constexpr TridiagonalBackend kBackends[] = {TridiagonalBackend::partitioned,
                                            TridiagonalBackend::cusparse};



// Solves h on the device with `backend` and returns the worst relative error against Thomas.
// First a solve of the same layout with NaN right sides (and NaN coefficients) fills whatever
// workspace the solver keeps with NaN, so that a read of a stale entry shows in the result.
real gpu_error(TridiagonalBackend backend, const HostBatch& h, bool constant) {
  const std::vector<real> truth = reference(h, constant);
  auto solver = fhn::solvers::make_batched_tridiagonal_solver(backend);
  REQUIRE(solver->space() == fhn::MemorySpace::device);
  DeviceBuffer<real> l = to_device(h.lower), d = to_device(h.diag), u = to_device(h.upper);
  {
    const std::vector<real> nans(h.rhs.size(), fhn::test::kGap);
    DeviceBuffer<real> poison = to_device(nans), coefficients = to_device(nans);
    if (constant) {
      solver->set_matrix(h.matrix.lower.data(), h.matrix.diag.data(), h.matrix.upper.data(),
                         h.layout.n);
      solver->solve(h.layout, poison.data());
    } else {
      const real* c = coefficients.data();
      solver->solve(h.layout, c, c, c, poison.data());
    }
    FHN_CUDA_CHECK(cudaDeviceSynchronize());
  }
  DeviceBuffer<real> x = to_device(h.rhs);
  if (constant)
    solver->solve(h.layout, x.data());
  else
    solver->solve(h.layout, l.data(), d.data(), u.data(), x.data());
  FHN_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(same_bits(to_host(l), h.lower));
  CHECK(same_bits(to_host(d), h.diag));
  CHECK(same_bits(to_host(u), h.upper));
  return worst_relative_error(h.layout, to_host(x), truth);
}

std::string layout_name(bool columns) { return columns ? "columns" : "rows"; }

}  // namespace

namespace {

// Every backend, layout and kind of coefficients on batches of each (n, count).
void check_every_backend(const std::vector<std::pair<index_t, index_t>>& shapes, std::mt19937_64& rng) {
  for (const TridiagonalBackend backend : kBackends)
    for (const bool columns : {false, true})
      for (const bool constant : {true, false})
        for (const auto& [n, count] : shapes) {
          const std::string solver = std::string(fhn::solvers::backend_name(backend));
          const std::string shape = layout_name(columns);
          CAPTURE(solver);
          CAPTURE(shape);
          CAPTURE(constant);
          CAPTURE(n);
          CAPTURE(count);
          CHECK(gpu_error(backend, make_batch(n, count, columns, 0, rng), constant) < 1e-12);
        }
}

}  // namespace

TEST_CASE("every batched GPU backend matches Thomas system by system") {
  std::mt19937_64 rng(20261202);
  std::vector<std::pair<index_t, index_t>> shapes;
  for (const index_t n : fhn::test::kBatchSizes)
    for (const index_t count : fhn::test::kBatchCounts) shapes.emplace_back(n, count);
  check_every_backend(shapes, rng);
}

TEST_CASE("batched GPU backends on large batches: many chunks and groups, a partial last group") {
  std::mt19937_64 rng(7);
  check_every_backend({{1024, 1024}, {4097, 65}}, rng);
}

TEST_CASE("batched GPU backends take strided layouts and leave the entries between systems alone") {
  std::mt19937_64 rng(9);
  for (const bool constant : {true, false}) {
    CAPTURE(constant);
    // partitioned: any strides; cusparse: contiguous systems at any system stride.
    CHECK(gpu_error(TridiagonalBackend::partitioned, make_batch(257, 45, false, 7, rng), constant) < 1e-12);
    CHECK(gpu_error(TridiagonalBackend::partitioned, make_batch(257, 45, true, 5, rng), constant) < 1e-12);
    CHECK(gpu_error(TridiagonalBackend::cusparse, make_batch(257, 45, false, 7, rng), constant) < 1e-12);
  }
  // An interleaved layout whose element stride is not the count is not cuSPARSE's.
  const HostBatch h = make_batch(40, 5, true, 3, rng);
  auto solver = fhn::solvers::make_batched_tridiagonal_solver(TridiagonalBackend::cusparse);
  DeviceBuffer<real> x = to_device(h.rhs), l = to_device(h.lower), d = to_device(h.diag),
                     u = to_device(h.upper);
  CHECK_THROWS_AS(solver->solve(h.layout, l.data(), d.data(), u.data(), x.data()),
                  fhn::InternalError);
}

TEST_CASE("batched GPU backends solve a batch repeated in planes (a box's lines along y)") {
  std::mt19937_64 rng(13);
  for (const TridiagonalBackend backend : kBackends)
    for (const bool constant : {true, false}) {
      CAPTURE(std::string(fhn::solvers::backend_name(backend)));
      CAPTURE(constant);
      // Interleaved systems in planes (a tile of 32 systems straddles two planes: 40 a plane).
      CHECK(gpu_error(backend, make_batch(257, 40, true, 0, rng, 5), constant) < 1e-12);
      CHECK(gpu_error(backend, make_batch(33, 64, true, 0, rng, 3), constant) < 1e-12);
      if (backend == TridiagonalBackend::partitioned)  // any strides
        CHECK(gpu_error(backend, make_batch(65, 17, false, 3, rng, 4), constant) < 1e-12);
    }
}

TEST_CASE("batched GPU backends check the shared matrix in set_matrix") {
  std::mt19937_64 rng(13);
  HostSystem m = fhn::test::random_dominant_system(50, rng);
  m.diag[31] = 0.2 * (std::abs(m.lower[31]) + std::abs(m.upper[31]));
  for (const TridiagonalBackend backend : kBackends) {
    const std::string name = std::string(fhn::solvers::backend_name(backend));
    CAPTURE(name);
    auto solver = fhn::solvers::make_batched_tridiagonal_solver(backend);
    try {
      solver->set_matrix(m.lower.data(), m.diag.data(), m.upper.data(), 50);
      FAIL("no NumericalError");
    } catch (const fhn::NumericalError& e) {
      CHECK(fhn::test::contains(e.what(), "matrix is not diagonally dominant at row 31"));
    }
  }
}

TEST_CASE("the partitioned solver with a matrix per plane solves each plane as that plane alone") {
  std::mt19937_64 rng(29);
  struct Shape {
    index_t n, count, planes, gap;
    bool columns;
  };
  // Rows end to end (addressed as one plane), rows and columns with gaps between the planes, a
  // tile of 32 systems straddling two planes (40 a plane), fewer systems than a tile.
  const Shape shapes[] = {{257, 40, 5, 0, false}, {65, 17, 4, 3, false}, {257, 40, 5, 0, true},
                          {33, 64, 3, 2, true},   {1, 3, 4, 0, false}};
  for (const Shape& z : shapes) {
    CAPTURE(z.n);
    CAPTURE(z.count);
    CAPTURE(z.columns);
    CAPTURE(z.gap);
    const HostBatch h = make_batch(z.n, z.count, z.columns, z.gap, rng, z.planes);
    // Three matrices; plane p takes matrix (2 p + 1) % 3.
    std::vector<fhn::test::HostSystem> matrices;
    std::vector<real> lower, diag, upper;
    for (int m = 0; m < 3; ++m) {
      matrices.push_back(fhn::test::random_dominant_system(z.n, rng));
      lower.insert(lower.end(), matrices.back().lower.begin(), matrices.back().lower.end());
      diag.insert(diag.end(), matrices.back().diag.begin(), matrices.back().diag.end());
      upper.insert(upper.end(), matrices.back().upper.begin(), matrices.back().upper.end());
    }
    std::vector<int> plane_matrix;
    for (index_t p = 0; p < z.planes; ++p) plane_matrix.push_back(static_cast<int>((2 * p + 1) % 3));
    fhn::solvers::BatchedPartitionedSolver all;
    all.set_matrices(lower.data(), diag.data(), upper.data(), z.n, 3);
    const DeviceBuffer<int> map = to_device(plane_matrix);
    DeviceBuffer<real> x = to_device(h.rhs), y = to_device(h.rhs);
    all.solve(h.layout, map.data(), x.data());
    for (index_t p = 0; p < z.planes; ++p) {
      const fhn::test::HostSystem& m = matrices[static_cast<std::size_t>(plane_matrix[static_cast<std::size_t>(p)])];
      fhn::solvers::BatchedPartitionedSolver alone;
      alone.set_matrix(m.lower.data(), m.diag.data(), m.upper.data(), z.n);
      alone.solve(h.layout.one_plane(), y.data() + p * h.layout.plane_stride);
    }
    FHN_CUDA_CHECK(cudaDeviceSynchronize());
    CHECK(same_bits(to_host(x), to_host(y)));
    // Without the planes' matrices the solve is refused.
    CHECK_THROWS_AS(all.solve(h.layout, x.data()), fhn::InternalError);
  }
}

TEST_CASE("the partitioned solver forms right sides as it reads them: the stored solve's bits") {
  // d(s, row) from `in` at the entry and in the systems beside it (test_form), formed on the
  // host and solved from memory, against the solver forming it in its tiles (solve_formed):
  // partial tiles and groups, the first and last systems without a neighbour, both layouts.
  // Multiples of 1/64 in [-1, 1] and test_form's dyadic weights keep every value of d exact, so
  // the host's d and the device's (which may contract to fused multiply-adds) agree bit for bit.
  std::mt19937_64 random(2026);
  std::uniform_int_distribution<int> sixty_fourths(-64, 64);
  auto value = [&](std::mt19937_64& g) { return sixty_fourths(g) / 64.0; };
  for (const index_t n : {1, 31, 33, 1025})
    for (const index_t count : {1, 3, 33, 70})
      for (const bool columns : {false, true}) {
        CAPTURE(n);
        CAPTURE(count);
        CAPTURE(layout_name(columns));
        const BatchLayout layout =
            columns ? BatchLayout::columns(count, n) : BatchLayout::rows(n, count);
        std::vector<real> lower(n), diag(n), upper(n);
        for (index_t k = 0; k < n; ++k) {
          lower[k] = k > 0 ? value(random) : 0.0;
          upper[k] = k + 1 < n ? value(random) : 0.0;
          diag[k] = 2.5625 + 0.5 * value(random);  // > 2 >= |lower| + |upper|
        }
        std::vector<real> in(static_cast<std::size_t>(layout.span()));
        for (real& x : in) x = value(random);
        std::vector<real> formed(in.size());
        for (index_t s = 0; s < count; ++s)
          for (index_t row = 0; row < n; ++row) {
            const real below = s > 0 ? in[layout.at(s - 1, row)] : 0.0;
            const real above = s + 1 < count ? in[layout.at(s + 1, row)] : 0.0;
            formed[layout.at(s, row)] =
                fhn::test::test_form(s, row, below, in[layout.at(s, row)], above);
          }
        fhn::solvers::BatchedPartitionedSolver stored;
        stored.set_matrix(lower.data(), diag.data(), upper.data(), n);
        DeviceBuffer<real> x = to_device(formed);
        stored.solve(layout, x.data());
        const std::vector<real> expected = to_host(x);
        const std::vector<real> got =
            fhn::test::solve_formed_on_device(layout, lower, diag, upper, in);
        CHECK(same_bits(got, expected));
        CHECK(std::abs(expected[layout.at(count - 1, n - 1)]) > 0.0);
      }
}
