// The Thomas solver against Eigen's sparse LU, and its refusals.
#include <doctest/doctest.h>

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <limits>
#include <random>

#include "core/build_info.hpp"
#include "core/cuda/launch.hpp"
#include "core/error.hpp"
#include "solvers/cpu/thomas.hpp"
#include "support.hpp"

namespace {

using fhn::test::HostSystem;
using fhn::test::random_dominant_system;

std::vector<double> eigen_solve(const HostSystem& s) {
  const auto n = static_cast<Eigen::Index>(s.diag.size());
  Eigen::SparseMatrix<double> a(n, n);
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index i = 0; i < n; ++i) {
    entries.emplace_back(i, i, s.diag[i]);
    if (i > 0) entries.emplace_back(i, i - 1, s.lower[i]);
    if (i + 1 < n) entries.emplace_back(i, i + 1, s.upper[i]);
  }
  a.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(a);
  REQUIRE(lu.info() == Eigen::Success);
  const Eigen::VectorXd x = lu.solve(Eigen::Map<const Eigen::VectorXd>(s.rhs.data(), n));
  return {x.data(), x.data() + n};
}

}  // namespace

TEST_CASE("thomas matches a hand-solved 3x3") {
  // [4 1 0; 1 4 1; 0 1 4] x = (6, 12, 14) has x = (1, 2, 3).
  std::vector<double> lower{0, 1, 1}, diag{4, 4, 4}, upper{1, 1, 0}, rhs{6, 12, 14};
  fhn::solvers::ThomasSolver thomas(3);
  thomas.solve({3, lower.data(), diag.data(), upper.data()}, rhs.data());
  CHECK(rhs[0] == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(rhs[1] == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(rhs[2] == doctest::Approx(3.0).epsilon(1e-15));
}

TEST_CASE("thomas agrees with Eigen's sparse LU on random diagonally dominant systems") {
  std::mt19937_64 rng(20261122);
  for (const fhn::index_t n : {1, 2, 3, 31, 32, 33, 1000, 4097}) {
    CAPTURE(n);
    const HostSystem s = random_dominant_system(n, rng);
    const std::vector<double> expected = eigen_solve(s);
    std::vector<double> x = s.rhs;
    fhn::solvers::ThomasSolver thomas(n);
    thomas.solve({n, s.lower.data(), s.diag.data(), s.upper.data()}, x.data());
    double error = 0.0, norm = 0.0;
    for (fhn::index_t i = 0; i < n; ++i) {
      error = std::max(error, std::abs(x[i] - expected[i]));
      norm = std::max(norm, std::abs(expected[i]));
    }
    CHECK(error / norm < 1e-12);
  }
}

TEST_CASE("thomas solves smaller systems than it was made for and ignores lower[0], upper[n-1]") {
  std::mt19937_64 rng(7);
  HostSystem s = random_dominant_system(33, rng);
  const std::vector<double> expected = eigen_solve(s);
  s.lower[0] = 1e30;  // ignored entries must not leak into the result
  s.upper[32] = -1e30;
  std::vector<double> x = s.rhs;
  fhn::solvers::ThomasSolver thomas(100);
  thomas.solve({33, s.lower.data(), s.diag.data(), s.upper.data()}, x.data());
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(x[i] == doctest::Approx(expected[i]).epsilon(1e-12));
}

TEST_CASE("a solver refuses a system larger than it was made for, or empty, in one wording") {
  std::mt19937_64 rng(7);
  HostSystem s = random_dominant_system(5, rng);
  fhn::solvers::ThomasSolver thomas(4);
  auto solve = [&](fhn::index_t n) {
    thomas.solve({n, s.lower.data(), s.diag.data(), s.upper.data()}, s.rhs.data());
  };
  CHECK_THROWS_WITH_AS(solve(5), "thomas: system of size 5 for a solver made for at most 4",
                       fhn::InternalError);
  CHECK_THROWS_WITH_AS(solve(0), "thomas: system of size 0 for a solver made for at most 4",
                       fhn::InternalError);
  CHECK_NOTHROW(fhn::solvers::check_system_size("partitioned", 4, 4));
  CHECK_NOTHROW(fhn::solvers::check_n_max("partitioned", 1));
  CHECK_THROWS_WITH_AS(fhn::solvers::check_n_max("cyclic_reduction", 0),
                       "cyclic_reduction: solver made for n_max = 0", fhn::InternalError);
}

TEST_CASE("a launch's grid holds at most 2^31 - 1 blocks") {
  using fhn::cuda::check_grid;
  using fhn::cuda::kMaxGridBlocks;
  CHECK_NOTHROW(check_grid(kMaxGridBlocks * 1024, 1024, "partitioned: n unknowns"));
  CHECK_THROWS_WITH_AS(check_grid(kMaxGridBlocks * 1024 + 1, 1024, "partitioned: n unknowns"),
                       "partitioned: n unknowns need more thread blocks than one launch can have",
                       fhn::DeviceError);
  // No overflow near the largest index: 2^63 - 1 items in blocks of 256 are refused.
  CHECK_THROWS_AS(check_grid(std::numeric_limits<fhn::index_t>::max(), 256, "x"), fhn::DeviceError);
  CHECK_NOTHROW(check_grid(0, 256, "x"));
}

TEST_CASE("thomas refuses a matrix that is not diagonally dominant, naming the row") {
  std::vector<double> lower{0, 1, 1}, diag{4, 1.5, 4}, upper{1, 1, 0}, rhs{1, 1, 1};
  fhn::solvers::ThomasSolver thomas(3);
  try {
    thomas.solve({3, lower.data(), diag.data(), upper.data()}, rhs.data());
    FAIL("expected NumericalError");
  } catch (const fhn::NumericalError& e) {
    CHECK(std::string(e.what()).find("not diagonally dominant at row 1: |diag| = 1.5 < |lower| + |upper| = 2") !=
          std::string::npos);
  }
  // Weak dominance that leaves a zero pivot: [1 -1; -1 1] is singular.
  std::vector<double> l2{0, -1}, d2{1, 1}, u2{-1, 0}, r2{1, 1};
  fhn::solvers::ThomasSolver small(2);
  CHECK_THROWS_WITH_AS(small.solve({2, l2.data(), d2.data(), u2.data()}, r2.data()),
                       doctest::Contains("pivot vanishes at row 1"), fhn::NumericalError);
}

TEST_CASE("the factory makes thomas, and reports GPU backends that cannot run here") {
  using fhn::solvers::TridiagonalBackend;
  auto thomas = fhn::solvers::make_tridiagonal_solver(TridiagonalBackend::thomas, 10);
  CHECK(thomas->name() == "thomas");
  CHECK(thomas->space() == fhn::MemorySpace::host);
  std::string why;
  if (!fhn::cuda_devices(&why).empty()) return;  // a GPU is visible: tests/gpu checks the solvers
  for (const auto backend : {TridiagonalBackend::partitioned, TridiagonalBackend::cyclic_reduction,
                             TridiagonalBackend::cusparse,
                             TridiagonalBackend::cusparse_pivot}) {
    CAPTURE(fhn::solvers::backend_name(backend));
    const std::string expected =
        "tridiagonal backend '" + std::string(fhn::solvers::backend_name(backend)) + "'";
    CHECK_THROWS_WITH_AS(fhn::solvers::make_tridiagonal_solver(backend, 10),
                         doctest::Contains(expected.c_str()), fhn::DeviceError);
  }
}
