// Slabs, halo exchanges and gathers on the ranks of the test run.
#include <doctest/doctest.h>

#include <numeric>

#include "core/error.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "tests/mpi/world.hpp"

namespace fhn {
namespace {

Domain sheet(index_t nx, index_t ny) {
  Domain d;
  d.dims = 2;
  d.nodes = {nx, ny, 1};
  d.length = {static_cast<real>(nx - 1), static_cast<real>(ny - 1), 0.0};
  d.dx = 1.0;
  return d;
}

TEST_CASE("slabs cover the last axis once, in rank order, counts differing by at most one") {
  const Domain d = sheet(5, 11);
  for (int ranks : {1, 2, 3, 4, 11}) {
    index_t next = 0;
    for (int r = 0; r < ranks; ++r) {
      const Slab s = make_slab(d, r, ranks, 1);
      CHECK(s.axis == 1);
      CHECK(s.plane == 5);
      CHECK(s.first == next);
      CHECK((s.count == 11 / ranks || s.count == 11 / ranks + 1));
      CHECK(s.halo == (ranks == 1 ? 0 : 1));
      CHECK(s.array_nodes() == (s.count + 2 * s.halo) * 5);
      next += s.count;
    }
    CHECK(next == 11);
    const auto counts = owned_node_counts(d, ranks);
    CHECK(std::accumulate(counts.begin(), counts.end(), std::size_t{0}) == 55);
  }
  // 3 ranks of 11 planes: 4, 4, 3.
  CHECK(make_slab(d, 2, 3, 1).first == 8);
  CHECK(make_slab(d, 2, 3, 1).count == 3);
  // A cable is cut along x, one node per plane.
  const Slab c = make_slab(cable(10, 0.5), 1, 2, 1);
  CHECK(c.plane == 1);
  CHECK(c.first == 5);
  CHECK_THROWS_WITH_AS(make_slab(d, 0, 4, 3, 3),
                       doctest::Contains("cannot be shared by 4 ranks: each needs at least 3"),
                       ConfigError);
  // A halo deeper than a neighbour's slab would need the next neighbour's planes too.
  CHECK_THROWS_WITH_AS(make_slab(d, 0, 5, 3),
                       doctest::Contains("cannot be shared by 5 ranks: each needs at least 3"),
                       ConfigError);
}

TEST_CASE("a halo exchange fills each halo plane with the neighbour's owned plane") {
  Communicator& comm = test::world();
  const Domain d = sheet(3, 9);
  const Slab s = make_slab(d, comm.rank(), comm.size(), 2);
  // Owned nodes hold their global node number, halos -1.
  std::vector<real> a(static_cast<std::size_t>(s.array_nodes()), -1.0);
  for (index_t k = 0; k < s.owned_nodes(); ++k)
    a[static_cast<std::size_t>(s.owned_offset() + k)] = static_cast<real>(s.global_offset() + k);
  make_host_halo_exchange(s, comm)->exchange(a.data(), s.halo);
  for (index_t p = 0; p < s.array_planes(); ++p) {
    const index_t global_plane = s.array_first() + p;
    const bool exists = global_plane >= 0 && global_plane < s.planes;
    for (index_t i = 0; i < s.plane; ++i) {
      const real expected = exists ? static_cast<real>(global_plane * s.plane + i) : -1.0;
      CHECK(a[static_cast<std::size_t>(p * s.plane + i)] == expected);
    }
  }
  // A shallower exchange touches only the planes next to the owned ones.
  std::fill(a.begin(), a.begin() + s.owned_offset(), -1.0);
  make_host_halo_exchange(s, comm)->exchange(a.data(), 1);
  if (s.below() >= 0) {
    CHECK(a[0] == -1.0);
    CHECK(a[static_cast<std::size_t>(s.owned_offset() - 1)] ==
          static_cast<real>(s.global_offset() - 1));
  }
}

TEST_CASE("gathering the owned nodes in rank order gives the global array; scatter undoes it") {
  Communicator& comm = test::world();
  const Domain d = sheet(4, 7);
  const Slab s = make_slab(d, comm.rank(), comm.size(), 1);
  std::vector<real> mine;
  for (index_t k = 0; k < s.owned_nodes(); ++k) mine.push_back(static_cast<real>(s.global_offset() + k));
  const std::vector<real> all = comm.gather(mine);
  if (comm.root()) {
    REQUIRE(all.size() == 28);
    for (std::size_t k = 0; k < all.size(); ++k) CHECK(all[k] == static_cast<real>(k));
  } else {
    CHECK(all.empty());
  }
  CHECK(comm.scatter(all, owned_node_counts(d, comm.size())) == mine);
  const std::vector<std::string> names = comm.gather("rank " + std::to_string(comm.rank()));
  if (comm.root()) {
    REQUIRE(names.size() == static_cast<std::size_t>(comm.size()));
    CHECK(names.back() == "rank " + std::to_string(comm.size() - 1));
  }
  std::string text = comm.root() ? "from the root" : "";
  comm.broadcast(text, 0);
  CHECK(text == "from the root");
  CHECK(comm.min(static_cast<index_t>(comm.rank()) + 5) == 5);
  CHECK(comm.sum(1.0) == static_cast<double>(comm.size()));
  CHECK(comm.any(comm.rank() == comm.size() - 1));
  CHECK_FALSE(comm.any(false));
}

}  // namespace
}  // namespace fhn
