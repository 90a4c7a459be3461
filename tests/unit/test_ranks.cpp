// One process: how the program learns it was started by mpirun, what a build without MPI says
// then, and the serial communicator every plain run uses.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "core/build_info.hpp"
#include "core/error.hpp"
#include "parallel/communicator.hpp"

namespace {

// Sets an environment variable for the scope (and removes it after).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

}  // namespace

TEST_CASE("the launcher's rank count comes from Open MPI's or the PMI environment, else 1") {
  CHECK(fhn::launcher_ranks() == 1);
  {
    const ScopedEnv env("OMPI_COMM_WORLD_SIZE", "4");
    CHECK(fhn::launcher_ranks() == 4);
  }
  {
    const ScopedEnv env("PMI_SIZE", "3");
    CHECK(fhn::launcher_ranks() == 3);
  }
  const ScopedEnv nonsense("PMI_SIZE", "many");
  CHECK(fhn::launcher_ranks() == 1);
}

TEST_CASE("a build without MPI started with several ranks refuses, saying what it lacks") {
  if (fhn::mpi_compiled()) return;  // this build connects the ranks (tests/mpi)
  const ScopedEnv env("OMPI_COMM_WORLD_SIZE", "2");
  CHECK_THROWS_WITH_AS(fhn::make_world_communicator(),
                       doctest::Contains("started with 2 MPI ranks, but this fhn was built "
                                         "without MPI (configured with -DFHN_WITH_MPI=OFF, or the "
                                         "MPI development files were not found: install "
                                         "libopenmpi-dev and rebuild); run it without mpirun"),
                       fhn::ConfigError);
}

TEST_CASE("one process: the serial communicator's collectives are the identity") {
  // Without a launcher every build gives the one-process communicator.
  const auto comm = fhn::make_world_communicator();
  CHECK(comm->size() == 1);
  CHECK(comm->root());
  CHECK(comm->describe() == "one process");
  CHECK(comm->min(7) == 7);
  CHECK(comm->sum(2.5) == 2.5);
  CHECK_FALSE(comm->any(false));
  CHECK(comm->any(true));
  const std::vector<fhn::real> values{1.0, 2.0, 3.0};
  CHECK(comm->gather(values) == values);
  CHECK(comm->scatter(values, {3}) == values);
  std::vector<fhn::real> moved;
  comm->all_to_all(values, {3}, moved, {3});
  CHECK(moved == values);
  CHECK_THROWS_AS(comm->send_receive(values.data(), 3, 1, nullptr, 0, fhn::kNoRank),
                  fhn::InternalError);
  // The element-wise maximum counts what is not finite as +infinity, as over several ranks.
  const fhn::real inf = std::numeric_limits<fhn::real>::infinity();
  std::vector<fhn::real> largest{1.5, std::nan(""), -inf, 0.0};
  comm->max(largest);
  CHECK(largest == std::vector<fhn::real>{1.5, inf, inf, 0.0});
}
