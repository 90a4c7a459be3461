// Distributed runs on GPUs, one rank a GPU (or ranks sharing one): the device halo exchange by
// each transport, the explicit sheet scheme on slabs gathered against the one-rank GPU run, and
// the explicit box on slabs of z planes against the CPU, bit for bit. Built only with CUDA (fhn_mpi_gpu_tests); where some rank sees no CUDA device the
// executable exits 77 on every rank before any case (tests/mpi/gpu_world.cpp).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/cuda/device_buffer.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"
#include "parallel/decomposition.hpp"
#include "schemes/cuda_schemes.hpp"
#include "schemes/scheme.hpp"
#include "sheet_support.hpp"
#include "support.hpp"
#include "tests/mpi/world.hpp"

namespace fhn {
namespace {

TEST_CASE("a device halo exchange fills each halo plane with the neighbour's owned plane") {
  Communicator& comm = test::world();
  Domain d;
  d.dims = 2;
  d.nodes = {5, 13, 1};
  d.length = {4.0, 12.0, 0.0};
  d.dx = 1.0;
  const Slab s = make_slab(d, comm.rank(), comm.size(), 3);
  int devices = 0;
  FHN_CUDA_CHECK(cudaGetDeviceCount(&devices));
  const bool shared = comm.any(comm.local_size() > devices);
  std::vector<std::unique_ptr<cuda::DeviceHaloExchange>> transports;
  transports.push_back(cuda::make_staged_halo_exchange(s, comm, 2, "test"));
  if (cuda::nccl_compiled() && !shared) transports.push_back(cuda::make_nccl_halo_exchange(s, comm));
  for (const auto& exchange : transports) {
    CAPTURE(exchange->describe());
    // Owned nodes hold their global node number (w: its negative), halos -1.
    const auto n = static_cast<std::size_t>(s.array_nodes());
    std::vector<real> v(n, -1.0), w(n, -1.0);
    for (index_t k = 0; k < s.owned_nodes(); ++k) {
      v[static_cast<std::size_t>(s.owned_offset() + k)] = static_cast<real>(s.global_offset() + k);
      w[static_cast<std::size_t>(s.owned_offset() + k)] = -static_cast<real>(s.global_offset() + k);
    }
    cuda::DeviceBuffer<real> dv(n, "v"), dw(n, "w");
    dv.upload(v.data(), n);
    dw.upload(w.data(), n);
    // Depth 2 of the 3 halo planes (one rank: no halo): the outermost keeps its -1.
    exchange->exchange({dv.data(), dw.data()}, std::min<index_t>(2, s.halo), nullptr);
    dv.download(v.data(), n);
    dw.download(w.data(), n);
    for (index_t p = 0; p < s.array_planes(); ++p) {
      const index_t global_plane = s.array_first() + p;
      const bool filled = global_plane >= 0 && global_plane < s.planes && p >= s.halo - 2 &&
                          p < s.halo + s.count + 2;
      for (index_t i = 0; i < s.plane; ++i) {
        const real node = static_cast<real>(global_plane * s.plane + i);
        CHECK(v[static_cast<std::size_t>(p * s.plane + i)] == (filled ? node : -1.0));
        CHECK(w[static_cast<std::size_t>(p * s.plane + i)] == (filled ? -node : -1.0));
      }
    }
  }
}

TEST_CASE("the explicit sheet on GPU slabs, gathered, equals the one-rank GPU run bit for bit") {
  Communicator& comm = test::world();
  const Config c = test::config_from(test::sheet_yaml(101, 137, test::kSheetSides[1]),
                                     {"scheme.backend=cuda"});
  const Problem problem = make_problem(c);
  // 137 steps in pieces that are not whole passes; the first stimulus is on from step 100.
  const std::vector<index_t> pieces = {30, 7, 100};
  auto slab = make_cuda_slab_scheme(problem, c.scheme, comm, nullptr);
  test::check_slab_share(*slab, problem.domain.node_count());
  for (const index_t steps : pieces) slab->advance(steps);
  Snapshot part;
  slab->snapshot(part);
  CHECK(slab->first_non_finite() == -1);
  const std::vector<real> v = comm.gather(part.v), w = comm.gather(part.w);
  if (comm.root()) {
    auto whole = make_cuda_scheme(problem, c.scheme, nullptr);
    for (const index_t steps : pieces) whole->advance(steps);
    Snapshot expected;
    whole->snapshot(expected);
    CHECK(part.step == expected.step);
    CHECK(v == expected.v);
    CHECK(w == expected.w);
  }
}

TEST_CASE("the explicit box on GPU slabs of z planes, gathered, equals the CPU bit for bit") {
  // The GPU tests' box (33 x 21 x 19 nodes, Dirichlet left and back faces, a stimulus block
  // across the middle planes from step 500): 700 steps in uneven pieces; the one-process CPU
  // run is the oracle (the box kernel has no FMA contraction).
  Communicator& comm = test::world();
  const Config c = test::config_from(test::box_yaml("cubic", "{type: explicit}"),
                                     {"scheme.backend=cuda"});
  const Problem problem = make_problem(c);
  const std::vector<index_t> pieces = {300, 1, 399};
  auto slab = make_cuda_slab_scheme(problem, c.scheme, comm, nullptr);
  test::check_slab_share(*slab, problem.domain.node_count());
  if (comm.size() > 1) CHECK(slab->name().find("slab") != std::string::npos);
  for (const index_t steps : pieces) slab->advance(steps);
  Snapshot part;
  slab->snapshot(part);
  const std::vector<real> v = comm.gather(part.v), w = comm.gather(part.w);
  if (comm.root()) {
    const Config cpu = test::config_from(test::box_yaml("cubic", "{type: explicit}"));
    auto whole = make_scheme(cpu, problem, nullptr);
    for (const index_t steps : pieces) whole->advance(steps);
    Snapshot expected;
    whole->snapshot(expected);
    CHECK(part.step == expected.step);
    CHECK(v == expected.v);
    CHECK(w == expected.w);
    CHECK(*std::max_element(v.begin(), v.end()) > 0.5);  // a wave under way
  }
}

}  // namespace
}  // namespace fhn
