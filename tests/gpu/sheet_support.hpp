#pragma once
// What the GPU tests share: a test sheet's and a test box's configs and device copies of a state
// (the sheet and explicit-kernel tests).
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "core/cuda/device_buffer.hpp"
#include "model/problem.hpp"
#include "parallel/decomposition.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/node_updates.hpp"

namespace fhn::test {

// A sheet of nx x ny nodes, dx = 0.5 (dt = 0.05 is 0.8 of the limit dx^2 / (4 D)): a Gaussian
// bump of v off centre, a step in w along y, and two overlapping rectangle stimuli, one firing
// three times (start 5, duration 1, period 15), one once (start 12, duration 2.5); `boundary`
// sets the sides.
std::string sheet_yaml(int nx, int ny, const std::string& boundary);

// Boundaries for sheet_yaml: all no-flux; Dirichlet left and bottom; right and top; all four.
extern const char* const kSheetSides[4];

// A box of 33 x 21 x 19 nodes (dx = 0.5; not multiples of the kernels' tiles), Dirichlet faces
// left and back, an S1 slab at x < 2 through half the depth, a stimulus block inside (start 10,
// duration 2), the given form and `scheme` (a flow mapping), time to 40 at dt = 0.02 (explicit)
// or as the scheme's overrides set.
std::string box_yaml(const std::string& form, const std::string& scheme);

// A cable of `nodes` nodes (dx = 0.5: length 0.5 (nodes - 1)) for Crank-Nicolson on the GPU with
// the given form, w update and tridiagonal solver: a Gaussian pulse, a Dirichlet right end, a
// stimulus that starts inside a step (t = 1.005), dt = 0.01.
std::string cn_cable_yaml(int nodes, const std::string& form, const std::string& w_update,
                          const std::string& solver);

// `scheme` advanced `steps` steps, and its state then.
Snapshot state_after(Scheme& scheme, index_t steps);

// A random state of n nodes, v in [-0.2, 1] and w in [-0.04, 0.2], from a generator seeded with
// `seed` (the same seed, the same state).
std::pair<std::vector<double>, std::vector<double>> random_state(std::size_t n, std::uint64_t seed);

// The elements of a and b (n each) that differ bitwise (NaN patterns included).
std::size_t bit_differences(const double* a, const double* b, std::size_t n);

// Device copies of a state, and the output pair (poisoned with NaN before each use).
struct DeviceState {
  cuda::DeviceBuffer<double> v, w;
  explicit DeviceState(std::size_t n) : v(n, "v"), w(n, "w") {}
  void upload(const std::vector<double>& hv, const std::vector<double>& hw);
  void poison();  // every byte 0xff: a NaN in every element
};

// A config's problem, its whole grid's NodeParams, its stimuli on the device and a random state
// (random_state with seed + the node count): what the kernel tests start from.
struct RandomStateCase {
  Problem problem;
  NodeParams q;
  cuda::DeviceStimuli stimuli;
  std::vector<double> v, w;
  RandomStateCase(const Config& c, std::uint64_t seed);

  // A rank's arrays of `slab` on the device, as a perfect halo exchange leaves them: the state's
  // planes (rows of a sheet) inside the grid, NaN beyond (never to be read); the output pair
  // poisoned; the NodeParams of those arrays.
  struct SlabArrays {
    DeviceState in, out;
    NodeParams q;
  };
  SlabArrays slab_arrays(const Slab& slab) const;
};


}  // namespace fhn::test
