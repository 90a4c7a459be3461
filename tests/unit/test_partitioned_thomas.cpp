// The partitioned Thomas solver (thomas_partitioned: chunks of one system eliminated side by side
// on one core) against ThomasSolver, its oracle: the same solutions to round-off, the same
// refusals naming the same rows, the same Crank-Nicolson runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "grid/snapshot.hpp"
#include "solvers/cpu/partitioned_thomas.hpp"
#include "solvers/cpu/thomas.hpp"
#include "study/convergence.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::solvers::PartitionedThomasSolver;
using fhn::test::HostSystem;
using fhn::test::random_dominant_system;

constexpr index_t kLanes = PartitionedThomasSolver::kLanes;
constexpr index_t kSmallest = kLanes * PartitionedThomasSolver::kMinChunk;  // below: Thomas
constexpr index_t kGroup = kLanes * PartitionedThomasSolver::kMaxChunk;     // rows of a group
constexpr index_t kLargest = 100003;

fhn::solvers::TridiagonalSystem matrix_of(const HostSystem& s) {
  return {s.size(), s.lower.data(), s.diag.data(), s.upper.data()};
}

// max_i |x_i - thomas_i| / max_i |thomas_i| for x from `solver` (made for kLargest unknowns).
double difference_from_thomas(const HostSystem& s, PartitionedThomasSolver& solver) {
  std::vector<double> expected = s.rhs, x = s.rhs;
  fhn::solvers::ThomasSolver(s.size()).solve(matrix_of(s), expected.data());
  solver.solve(matrix_of(s), x.data());
  double difference = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    difference = std::max(difference, std::abs(x[i] - expected[i]));
    norm = std::max(norm, std::abs(expected[i]));
  }
  return difference / norm;
}

// What `solver` throws on s ("" when it solves it).
std::string refusal(fhn::solvers::TridiagonalSolver& solver, const HostSystem& s) {
  std::vector<double> x = s.rhs;
  return fhn::test::thrown_message<fhn::NumericalError>(
      [&] { solver.solve(matrix_of(s), x.data()); });
}

// The refusal of thomas_partitioned must be Thomas's, with the solver's name in front.
void check_same_refusal(const HostSystem& s, const char* expected_part) {
  fhn::solvers::ThomasSolver thomas(s.size());
  PartitionedThomasSolver partitioned(s.size());
  const std::string by_thomas = refusal(thomas, s);
  REQUIRE(by_thomas.find(expected_part) != std::string::npos);
  const std::string after_name = by_thomas.substr(std::string("thomas").size());
  CHECK(refusal(partitioned, s) == "thomas_partitioned" + after_name);
}

}  // namespace

TEST_CASE("thomas_partitioned agrees with thomas on random dominant systems of every shape") {
  std::mt19937_64 rng(20261123);
  PartitionedThomasSolver solver(kLargest);
  // One sweep (below kSmallest), one group with whole chunks of padding (kSmallest + 1), one
  // group, several, exact multiples of a group (no padding), odd sizes.
  for (const index_t n :
       {index_t{1}, index_t{2}, index_t{3}, index_t{7}, kLanes - 1, kLanes, kLanes + 1,
        kSmallest - 1, kSmallest, kSmallest + 1, index_t{1000}, kGroup - 1, kGroup, kGroup + 1,
        2 * kGroup, 2 * kGroup + 7, index_t{12345}, kLargest}) {
    CAPTURE(n);
    CHECK(difference_from_thomas(random_dominant_system(n, rng), solver) < 1e-15);
  }
}

TEST_CASE("thomas_partitioned ignores lower[0] and upper[n-1]") {
  std::mt19937_64 rng(11);
  PartitionedThomasSolver solver(kLargest);
  for (const index_t n : {kSmallest + 1, 3 * kGroup}) {
    CAPTURE(n);
    HostSystem s = random_dominant_system(n, rng);
    s.lower.front() = std::numeric_limits<double>::quiet_NaN();
    s.upper.back() = std::numeric_limits<double>::infinity();
    CHECK(difference_from_thomas(s, solver) < 1e-15);
  }
}

TEST_CASE("thomas_partitioned agrees with thomas where lower or upper vanish inside the matrix") {
  // Dirichlet-like rows (0, 1, 0 | r) and rows with one zero coupling every few rows: some fall
  // on the first or last row of a chunk, where the chunk then has no left or right neighbour in
  // the reduced system.
  std::mt19937_64 rng(5);
  PartitionedThomasSolver solver(kLargest);
  for (const index_t n : {index_t{1000}, index_t{12345}, kLargest}) {
    CAPTURE(n);
    HostSystem s = random_dominant_system(n, rng);
    for (index_t i = 0; i < n; ++i) {
      if (i % 7 == 0) s.lower[i] = 0.0;
      if (i % 11 == 0) s.upper[i] = 0.0;
      if (i % 13 == 0) {
        s.lower[i] = s.upper[i] = 0.0;
        s.diag[i] = 1.0;
      }
    }
    CHECK(difference_from_thomas(s, solver) < 1e-15);
  }
}

TEST_CASE("thomas_partitioned refuses what thomas refuses, naming the same row") {
  std::mt19937_64 rng(3);
  // Not dominant: the first failing row in row order, wherever the chunks lie (the first row,
  // one inside, the last in the padded group).
  for (const index_t row : {index_t{0}, index_t{5000}, index_t{9000}, index_t{12344}}) {
    CAPTURE(row);
    HostSystem s = random_dominant_system(12345, rng);
    s.diag[row] = 0.5 * (std::abs(s.lower[row]) + std::abs(s.upper[row]));
    if (row == 5000) s.diag[9000] = 0.0;  // a later failure is not the one named
    check_same_refusal(s, ("not diagonally dominant at row " + std::to_string(row)).c_str());
  }
  // Weakly dominant and singular: the discrete Laplacian with no-flux ends, a vanishing pivot at
  // the last row.
  const index_t n = 2000;
  HostSystem laplacian{std::vector<double>(n, -1.0), std::vector<double>(n, 2.0),
                       std::vector<double>(n, -1.0), std::vector<double>(n, 1.0)};
  laplacian.diag.front() = laplacian.diag.back() = 1.0;
  check_same_refusal(laplacian, "the pivot vanishes at row 1999");
}

TEST_CASE("Crank-Nicolson on the cpu with thomas_partitioned agrees with thomas") {
  // No-flux ends, and a Dirichlet end (its row is (0, 1, 0 | value)).
  for (const bool dirichlet : {false, true}) {
    CAPTURE(dirichlet);
    auto run = [&](const std::string& solver) {
      std::vector<std::string> overrides{"time.end=20", "output.every=20",
                                         "scheme.crank_nicolson.tridiagonal=" + solver};
      if (dirichlet) overrides.insert(overrides.end(), {"boundary.left.type=dirichlet",
                                                        "boundary.left.value=0.2"});
      return fhn::final_state(
          fhn::load_config(fhn::test::source_path("configs/pulse_split_cn.yaml"), overrides));
    };
    const fhn::Snapshot thomas = run("thomas"), partitioned = run("thomas_partitioned");
    REQUIRE(thomas.v.size() == partitioned.v.size());
    CHECK(thomas.v.size() > static_cast<std::size_t>(kSmallest));  // not the one-sweep path
    double v = 0.0, w = 0.0;
    for (std::size_t i = 0; i < thomas.v.size(); ++i) {
      v = std::max(v, std::abs(thomas.v[i] - partitioned.v[i]));
      w = std::max(w, std::abs(thomas.w[i] - partitioned.w[i]));
    }
    CHECK(v < 1e-12);
    CHECK(w < 1e-12);
  }
}

TEST_CASE("config: thomas_partitioned runs on the cpu backend, for the Newton formulation") {
  CHECK(fhn::test::config_from("scheme: {type: crank_nicolson, crank_nicolson: "
                               "{tridiagonal: thomas_partitioned}}\n")
            .scheme.crank_nicolson.tridiagonal ==
        fhn::solvers::TridiagonalBackend::thomas_partitioned);
  CHECK(fhn::test::config_error("scheme: {type: crank_nicolson, backend: cuda, crank_nicolson: "
                                "{tridiagonal: thomas_partitioned}}\n")
            .find("'thomas_partitioned' runs on the CPU; with scheme.backend: cuda use") !=
        std::string::npos);
  CHECK(fhn::test::config_error("scheme: {type: crank_nicolson, crank_nicolson: "
                                "{formulation: adi, tridiagonal: thomas_partitioned}}\n")
            .find("'thomas_partitioned' has no batched form") != std::string::npos);
}
