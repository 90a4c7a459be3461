#include "sheet_support.hpp"

#include <cstring>
#include <limits>
#include <random>
#include <tuple>

#include "core/cuda/cuda_check.hpp"

namespace fhn::test {

std::pair<std::vector<double>, std::vector<double>> random_state(std::size_t n,
                                                                 std::uint64_t seed) {
  std::vector<double> v(n), w(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-0.2, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = value(rng);
    w[i] = 0.2 * value(rng);
  }
  return {v, w};
}

RandomStateCase::RandomStateCase(const Config& c, std::uint64_t seed)
    : problem(make_problem(c)), q(node_params(problem)), stimuli(problem.stimuli) {
  std::tie(v, w) = random_state(problem.v0.size(), seed + problem.v0.size());
}

RandomStateCase::SlabArrays RandomStateCase::slab_arrays(const Slab& slab) const {
  const auto n = static_cast<std::size_t>(slab.array_nodes());
  const auto plane = static_cast<std::size_t>(slab.plane);
  std::vector<double> sv(n, std::numeric_limits<double>::quiet_NaN()), sw = sv;
  for (index_t p = 0; p < slab.array_planes(); ++p) {
    const index_t k = slab.array_first() + p;
    if (k < 0 || k >= slab.planes) continue;
    std::memcpy(sv.data() + p * plane, v.data() + k * plane, plane * sizeof(double));
    std::memcpy(sw.data() + p * plane, w.data() + k * plane, plane * sizeof(double));
  }
  SlabArrays out{DeviceState(n), DeviceState(n), q};
  out.in.upload(sv, sw);
  out.out.poison();
  out.q.plane0 = slab.array_first();
  out.q.planes = slab.array_planes();
  return out;
}

std::size_t bit_differences(const double* a, const double* b, std::size_t n) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) count += std::memcmp(a + i, b + i, sizeof(double)) != 0;
  return count;
}

std::string cn_cable_yaml(int nodes, const std::string& form, const std::string& w_update,
                          const std::string& solver) {
  return "model: {form: " + form + "}\n" + "domain: {length: " + std::to_string(0.5 * (nodes - 1)) +
         ", nodes: " + std::to_string(nodes) + "}\n"
         "boundary: {right: {type: dirichlet, value: 0}}\n"
         "initial: {v: {type: gaussian, width2: 4, amplitude: 1}, w: {type: constant, value: 0}}\n"
         "stimulus: [{x_min: 20, x_max: 30, start: 1.005, duration: 1, amplitude: 0.5}]\n"
         "time: {end: 100, dt: 0.01}\n"
         "scheme: {type: crank_nicolson, backend: cuda, crank_nicolson: {w_update: " +
         w_update + ", tridiagonal: " + solver + "}}\n"
         "output: {vtk: false, spacetime: false}\n";
}

Snapshot state_after(Scheme& scheme, index_t steps) {
  scheme.advance(steps);
  Snapshot s;
  scheme.snapshot(s);
  return s;
}

// The second stimulus's band is one dx high, so that it holds a row of nodes on every sheet (a
// stimulus that holds no node is refused).
std::string box_yaml(const std::string& form, const std::string& scheme) {
  return "model: {form: " + form + "}\n" +
         "domain: {length: [16, 10, 9], dx: 0.5}\n"
         "boundary: {left: {type: dirichlet, value: 0.3}, back: {type: dirichlet, value: 0.1}}\n"
         "initial: {v: {type: rectangle, x_min: 0, x_max: 2, z_min: 0, z_max: 5, value: 1}}\n"
         "stimulus: [{x_min: 8, x_max: 12, y_min: 2, y_max: 6, z_min: 3, z_max: 7, start: 10, "
         "duration: 2, amplitude: 0.7}]\n"
         "scheme: " + scheme + "\n"
         "time: {end: 40, dt: 0.02}\n"
         "output: {vtk: false, probes: []}\n";
}

std::string sheet_yaml(int nx, int ny, const std::string& boundary) {
  const double lx = 0.5 * (nx - 1), ly = 0.5 * (ny - 1);
  auto num = [](double x) { return std::to_string(x); };
  return "domain: {length: [" + num(lx) + ", " + num(ly) + "], dx: 0.5}\n"
         "boundary: " + boundary + "\n"
         "initial: {v: {type: gaussian, center: [" + num(0.4 * lx) + ", " + num(0.6 * ly) +
         "], width2: 6}, w: {type: step, axis: y, position: " + num(0.5 * ly) +
         ", left: 0, right: 0.02}}\n"
         "stimulus: [{x_min: " + num(0.7 * lx) + ", x_max: " + num(lx) + ", y_min: 0, y_max: " +
         num(0.3 * ly) + ", start: 5, duration: 1, amplitude: 0.7, period: 15, count: 3},\n"
         "           {x_min: 0, x_max: " + num(0.8 * lx) + ", y_min: " + num(0.2 * ly) +
         ", y_max: " + num(0.2 * ly + 0.5) + ", start: 12, duration: 2.5, amplitude: 0.4}]\n"
         "time: {end: 50, dt: 0.05}\n"
         "output: {vtk: false, probes: []}\n";
}

const char* const kSheetSides[4] = {
    "{}",
    "{left: {type: dirichlet, value: 0.3}, bottom: {type: dirichlet, value: 0.8}}",
    "{right: {type: dirichlet, value: 1}, top: {type: dirichlet, value: -0.1}}",
    "{left: {type: dirichlet, value: 0.2}, right: {type: dirichlet, value: 0.4}, "
    "bottom: {type: dirichlet, value: 0.6}, top: {type: dirichlet, value: 0.9}}"};

void DeviceState::upload(const std::vector<double>& hv, const std::vector<double>& hw) {
  v.upload(hv.data(), hv.size());
  w.upload(hw.data(), hw.size());
}

void DeviceState::poison() {
  FHN_CUDA_CHECK(cudaMemset(v.data(), 0xff, v.size() * sizeof(double)));
  FHN_CUDA_CHECK(cudaMemset(w.data(), 0xff, w.size() * sizeof(double)));
}

}  // namespace fhn::test
