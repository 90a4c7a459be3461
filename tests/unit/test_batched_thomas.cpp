// The batched Thomas solver against the single-system Thomas solver applied system by system,
// in both layouts, with both kinds of coefficients, and its refusals. The GPU backends run the
// same suite in tests/gpu/test_gpu_batched.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "solvers/batched_tridiagonal.hpp"
#include "solvers/cpu/thomas.hpp"
#include "batched_support.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;
using fhn::solvers::BatchLayout;
using fhn::test::HostBatch;
using fhn::test::HostSystem;
using fhn::test::kBatchCounts;
using fhn::test::kBatchSizes;
using fhn::test::make_batch;
using fhn::test::reference;
using fhn::test::same_bits;
using fhn::test::worst_relative_error;


// Solves h with thomas (constant or per-system) and returns the worst relative error; checks that
// the coefficients are left as they were.
real thomas_error(HostBatch h, bool constant) {
  const std::vector<real> truth = reference(h, constant);
  const HostBatch before = h;
  auto solver = fhn::solvers::make_batched_tridiagonal_solver(fhn::solvers::TridiagonalBackend::thomas);
  if (constant) {
    solver->set_matrix(h.matrix.lower.data(), h.matrix.diag.data(), h.matrix.upper.data(), h.layout.n);
    solver->solve(h.layout, h.rhs.data());
  } else {
    solver->solve(h.layout, h.lower.data(), h.diag.data(), h.upper.data(), h.rhs.data());
  }
  CHECK(same_bits(h.lower, before.lower));
  CHECK(same_bits(h.diag, before.diag));
  CHECK(same_bits(h.upper, before.upper));
  CHECK(same_bits(h.matrix.diag, before.matrix.diag));
  return worst_relative_error(h.layout, h.rhs, truth);
}

}  // namespace

TEST_CASE("batched thomas matches Thomas system by system: both layouts, both coefficient kinds") {
  std::mt19937_64 rng(20261201);
  for (const bool columns : {false, true})
    for (const bool constant : {true, false})
      for (const index_t n : kBatchSizes)
        for (const index_t count : kBatchCounts) {
          CAPTURE(columns);
          CAPTURE(constant);
          CAPTURE(n);
          CAPTURE(count);
          CHECK(thomas_error(make_batch(n, count, columns, 0, rng), constant) < 1e-12);
        }
}

TEST_CASE("batched thomas takes strided layouts and leaves the entries between systems alone") {
  std::mt19937_64 rng(5);
  for (const bool columns : {false, true})
    for (const bool constant : {true, false}) {
      CAPTURE(columns);
      CAPTURE(constant);
      // Many systems: several groups per thread, and a group cut short at the end.
      CHECK(thomas_error(make_batch(257, 301, columns, 7, rng), constant) < 1e-12);
      CHECK(thomas_error(make_batch(2, 45, columns, 3, rng), constant) < 1e-12);
    }
}

TEST_CASE("batched thomas solves a batch repeated in planes (a box's lines along y)") {
  std::mt19937_64 rng(11);
  for (const bool columns : {false, true})
    for (const bool constant : {true, false}) {
      CAPTURE(columns);
      CAPTURE(constant);
      CHECK(thomas_error(make_batch(33, 17, columns, 3, rng, 5), constant) < 1e-12);
      CHECK(thomas_error(make_batch(7, 40, columns, 0, rng, 3), constant) < 1e-12);
    }
  // plane_columns: a 4 x 3 x 2 box's lines along y, entry j of line (i, k) at i + 4 (j + 3 k).
  const BatchLayout y = BatchLayout::plane_columns(4, 3, 2);
  CHECK(y.systems() == 8);
  CHECK(y.at(5, 2) == 1 + 4 * (2 + 3 * 1));
  CHECK(y.span() == 24);
  BatchLayout overlapping = y;
  overlapping.plane_stride = 11;
  CHECK_THROWS_WITH_AS(overlapping.verify("thomas"),
                       "thomas: batch layout with 2 planes 11 apart, each 12 entries long",
                       fhn::InternalError);
}

TEST_CASE("batched thomas names the system and row of a matrix that is not diagonally dominant") {
  std::mt19937_64 rng(11);
  for (const bool columns : {false, true}) {
    CAPTURE(columns);
    HostBatch h = make_batch(40, 35, columns, 0, rng);
    const auto at = static_cast<std::size_t>(h.layout.at(21, 17));
    h.diag[at] = 0.5 * (std::abs(h.lower[at]) + std::abs(h.upper[at]));
    auto solver = fhn::solvers::make_batched_tridiagonal_solver(fhn::solvers::TridiagonalBackend::thomas);
    try {
      solver->solve(h.layout, h.lower.data(), h.diag.data(), h.upper.data(), h.rhs.data());
      FAIL("no NumericalError");
    } catch (const fhn::NumericalError& e) {
      CHECK(fhn::test::contains(e.what(), "system 21 is not diagonally dominant at row 17"));
    }
  }
  // The shared matrix is checked once, in set_matrix.
  HostSystem m = fhn::test::random_dominant_system(9, rng);
  m.diag[4] = 0.1 * (std::abs(m.lower[4]) + std::abs(m.upper[4]));
  auto solver = fhn::solvers::make_batched_tridiagonal_solver(fhn::solvers::TridiagonalBackend::thomas);
  try {
    solver->set_matrix(m.lower.data(), m.diag.data(), m.upper.data(), 9);
    FAIL("no NumericalError");
  } catch (const fhn::NumericalError& e) {
    CHECK(fhn::test::contains(e.what(), "matrix is not diagonally dominant at row 4"));
  }
}

TEST_CASE("batched solvers: backends without a batched form are refused, GPU ones need a device") {
  using fhn::solvers::TridiagonalBackend;
  for (const TridiagonalBackend b : {TridiagonalBackend::cyclic_reduction, TridiagonalBackend::cusparse_pivot})
    CHECK_THROWS_AS(fhn::solvers::make_batched_tridiagonal_solver(b), fhn::ConfigError);
  const auto thomas = fhn::solvers::make_batched_tridiagonal_solver(TridiagonalBackend::thomas);
  CHECK(thomas->name() == "thomas");
  CHECK(thomas->space() == fhn::MemorySpace::host);
  // A layout the matrix was not set for is an internal error, not a wrong answer.
  std::vector<real> l{0, 1, 1}, d{4, 4, 4}, u{1, 1, 0}, r(6, 1.0);
  thomas->set_matrix(l.data(), d.data(), u.data(), 3);
  CHECK_THROWS_AS(thomas->solve(BatchLayout::rows(2, 3), r.data()), fhn::InternalError);
  thomas->solve(BatchLayout::rows(3, 2), r.data());
  // [4 1 0; 1 4 1; 0 1 4] x = (1, 1, 1): x = (3/14, 1/7, 3/14).
  CHECK(r[0] == doctest::Approx(3.0 / 14).epsilon(1e-15));
  CHECK(r[4] == doctest::Approx(1.0 / 7).epsilon(1e-15));
}
