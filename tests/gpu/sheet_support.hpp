#pragma once
// What the GPU tests share: a test sheet's and a test box's configs and device copies of a state
// (the sheet and explicit-kernel tests).
#include <string>
#include <vector>

#include "core/cuda/device_buffer.hpp"

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

// Device copies of a state, and the output pair (poisoned with NaN before each use).
struct DeviceState {
  cuda::DeviceBuffer<double> v, w;
  explicit DeviceState(std::size_t n) : v(n, "v"), w(n, "w") {}
  void upload(const std::vector<double>& hv, const std::vector<double>& hw);
  void poison();  // every byte 0xff: a NaN in every element
};

}  // namespace fhn::test
