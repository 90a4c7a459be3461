// The explicit box kernels on the GPU: a blocked pass of K steps (2.5-D blocking,
// explicit_box_kernels.cu) against K launches of the one-step kernel, bit for bit, over every
// node: boxes smaller than a tile and boxes of many tiles whose work shares cut tile columns
// part way, no-flux and Dirichlet faces, the cubic and Barkley forms, a stimulus on and none;
// then a slab's planes (arrays holding only the slab and its halo planes, as a rank's), of one step
// and of each depth, against the whole box, and the arguments the launcher refuses.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "config/loader.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "model/problem.hpp"
#include "parallel/decomposition.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/cuda/explicit_box_kernels.cuh"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::test::bit_differences;
using fhn::test::DeviceState;
using Fields = std::pair<std::vector<double>, std::vector<double>>;

// A box of nx x ny x nz nodes (dx = 0.5, dt = 0.01: within the limits of the cubic form,
// dx^2 / (6 D), and of Barkley's), the faces `boundary`, a stimulus block on from t = 5 to 6.
std::string box_case_yaml(int nx, int ny, int nz, const std::string& boundary,
                          const std::string& form) {
  const double lx = 0.5 * (nx - 1), ly = 0.5 * (ny - 1), lz = 0.5 * (nz - 1);
  auto num = [](double x) { return std::to_string(x); };
  return "model: {form: " + form + "}\n" +
         "domain: {length: [" + num(lx) + ", " + num(ly) + ", " + num(lz) + "], dx: 0.5}\n" +
         "boundary: " + boundary + "\n" +
         "stimulus: [{x_min: " + num(0.3 * lx) + ", x_max: " + num(0.7 * lx) +
         ", y_min: 0, y_max: " + num(0.5 * ly) + ", z_min: " + num(0.2 * lz) +
         ", z_max: " + num(0.6 * lz) + ", start: 5, duration: 1, amplitude: 0.7}]\n" +
         "time: {end: 10, dt: 0.01}\n"
         "output: {vtk: false, probes: []}\n";
}

const char* const kBoxFaces[3] = {
    "{}",
    "{left: {type: dirichlet, value: 0.3}, back: {type: dirichlet, value: 0.1}}",
    "{right: {type: dirichlet, value: 1}, top: {type: dirichlet, value: -0.1}, "
    "front: {type: dirichlet, value: 0.5}}"};

// A box, a random state (v in [-0.2, 1], w in [-0.04, 0.2]) and its stimuli on the device.
struct BoxCase : fhn::test::RandomStateCase {
  explicit BoxCase(const fhn::Config& c) : RandomStateCase(c, 20261127u) {}
  std::size_t plane_nodes() const { return static_cast<std::size_t>(q.n[0] * q.n[1]); }

  // The whole box after `steps` steps from step `first`: one-step launches (the reference) or
  // one blocked pass.
  Fields whole(index_t first, int steps, bool blocked, const fhn::StimulusTable& table) const {
    DeviceState a(v.size()), b(v.size());
    a.upload(v, w);
    b.poison();
    if (blocked) {
      fhn::cuda::launch_explicit_box_steps_blocked(a.v.data(), a.w.data(), b.v.data(),
                                                   b.w.data(), q, problem.model.kinetics, table,
                                                   first, steps, nullptr);
      return {fhn::cuda::to_host(b.v), fhn::cuda::to_host(b.w)};
    }
    for (int s = 0; s < steps; ++s) {
      DeviceState& in = s % 2 == 0 ? a : b;
      DeviceState& out = s % 2 == 0 ? b : a;
      fhn::cuda::launch_explicit_box_step(in.v.data(), in.w.data(), out.v.data(), out.w.data(), q,
                                          problem.model.kinetics, table, first + s, nullptr);
    }
    const DeviceState& last = steps % 2 == 1 ? b : a;
    return {fhn::cuda::to_host(last.v), fhn::cuda::to_host(last.w)};
  }
};

// A blocked pass over the owned planes of `slab` from arrays holding only its planes: they must
// equal the whole box's, and every halo plane of the output keep its poison.
void check_slab(const BoxCase& s, const fhn::Slab& slab, index_t first_step, int steps,
                const Fields& whole) {
  CAPTURE(slab.rank);
  CAPTURE(slab.ranks);
  fhn::test::RandomStateCase::SlabArrays arrays = s.slab_arrays(slab);
  DeviceState &in = arrays.in, &out = arrays.out;
  const fhn::NodeParams& q = arrays.q;
  fhn::cuda::launch_explicit_box_steps_blocked(in.v.data(), in.w.data(), out.v.data(),
                                               out.w.data(), q, s.problem.model.kinetics,
                                               s.stimuli.view(), first_step, steps, nullptr,
                                               slab.first, slab.first + slab.count);
  const std::vector<double> ov = fhn::cuda::to_host(out.v), ow = fhn::cuda::to_host(out.w);
  const std::size_t plane = s.plane_nodes();
  std::vector<double> poisoned(plane);
  std::memset(poisoned.data(), 0xff, plane * sizeof(double));
  for (index_t p = 0; p < slab.array_planes(); ++p) {
    const index_t k = slab.array_first() + p;
    CAPTURE(k);
    const std::size_t at = p * plane;
    if (k >= slab.first && k < slab.first + slab.count) {
      CHECK(bit_differences(ov.data() + at, whole.first.data() + k * plane, plane) == 0);
      CHECK(bit_differences(ow.data() + at, whole.second.data() + k * plane, plane) == 0);
    } else {
      CHECK(bit_differences(ov.data() + at, poisoned.data(), plane) == 0);
      CHECK(bit_differences(ow.data() + at, poisoned.data(), plane) == 0);
    }
  }
}

// Every depth, faces, form and stimulus on a box of nx x ny x nz nodes: the blocked pass against
// one-step launches over the whole box, and over slabs of 2 and 3 ranks.
void check_box(int nx, int ny, int nz) {
  for (const char* faces : kBoxFaces)
    for (const char* form : {"cubic", "barkley"}) {
      CAPTURE(nx);
      CAPTURE(ny);
      CAPTURE(nz);
      CAPTURE(faces);
      CAPTURE(std::string(form));
      const BoxCase s(fhn::test::config_from(box_case_yaml(nx, ny, nz, faces, form)));
      // Steps 499..: the stimulus comes on at t = 5 (step 500) inside every pass.
      const index_t first_step = 499;
      // The one-step kernel (a pass of depth 1) over slabs of 2 and 3 ranks, halo 1, against
      // its run over the whole box: arrays that start at a halo plane, and chunks of planes
      // cut by the slab's ends.
      const Fields one_step = s.whole(first_step, 1, false, s.stimuli.view());
      for (int ranks : {2, 3})
        for (int rank = 0; rank < ranks; ++rank)
          check_slab(s, fhn::make_slab(s.problem.domain, rank, ranks, 1), first_step, 1,
                     one_step);
      for (int steps = 2; steps <= fhn::cuda::kExplicitBoxMaxSteps; ++steps) {
        CAPTURE(steps);
        for (bool stimulus : {true, false}) {
          CAPTURE(stimulus);
          const fhn::StimulusTable table = stimulus ? s.stimuli.view() : fhn::StimulusTable{};
          const Fields one = s.whole(first_step, steps, false, table);
          const Fields blocked = s.whole(first_step, steps, true, table);
          CHECK(bit_differences(one.first.data(), blocked.first.data(), s.v.size()) == 0);
          CHECK(bit_differences(one.second.data(), blocked.second.data(), s.v.size()) == 0);
          // The stimulus reached the state: the two tables give different v.
          if (stimulus)
            CHECK(bit_differences(one.first.data(),
                                  s.whole(first_step, steps, false, {}).first.data(),
                                  s.v.size()) > 0);
        }
        // Slabs of 2 and 3 ranks, halo planes = the pass's depth.
        const Fields whole = s.whole(first_step, steps, false, s.stimuli.view());
        for (int ranks : {2, 3}) {
          if (nz / ranks < steps) continue;  // the scheme's least slab
          for (int rank = 0; rank < ranks; ++rank)
            check_slab(s, fhn::make_slab(s.problem.domain, rank, ranks, steps, steps),
                       first_step, steps, whole);
        }
      }
    }
}

}  // namespace

// A box smaller than one tile (every block streams a single plane of it).
TEST_CASE("box kernels: a blocked pass equals one-step launches bit for bit, one tile") {
  check_box(33, 21, 19);
}

// Boxes of many tiles whose shares of the work cut tile columns part way (more tile planes than
// the grid has blocks), odd sizes.
TEST_CASE("box kernels: a blocked pass equals one-step launches bit for bit, many tiles") {
  check_box(100, 100, 40);
  check_box(131, 61, 57);
}

TEST_CASE("box kernels: depths and planes outside the arrays are refused") {
  const BoxCase s(fhn::test::config_from(box_case_yaml(9, 8, 20, "{}", "cubic")));
  DeviceState a(s.v.size()), b(s.v.size());
  const fhn::StimulusTable none{};
  fhn::NodeParams q = s.q;
  auto blocked = [&](const fhn::NodeParams& p, int steps, index_t k_begin, index_t k_end) {
    fhn::cuda::launch_explicit_box_steps_blocked(a.v.data(), a.w.data(), b.v.data(), b.w.data(),
                                                 p, s.problem.model.kinetics, none, 0, steps,
                                                 nullptr, k_begin, k_end);
  };
  CHECK_THROWS_AS(blocked(q, 0, 0, 20), fhn::InternalError);  // no steps
  CHECK_THROWS_AS(blocked(q, fhn::cuda::kExplicitBoxMaxSteps + 1, 0, 20), fhn::InternalError);
  CHECK_THROWS_AS(blocked(q, 2, 0, 21), fhn::InternalError);  // past the box
  q.plane0 = 4;
  q.planes = 10;
  CHECK_THROWS_AS(blocked(q, 3, 6, 14), fhn::InternalError);  // 3 planes below: not held
  CHECK_THROWS_AS(blocked(q, 3, 7, 12), fhn::InternalError);  // 3 planes above: not held
  CHECK_NOTHROW(blocked(q, 3, 7, 11));
  FHN_CUDA_CHECK(cudaDeviceSynchronize());
}
