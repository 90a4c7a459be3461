// DeviceScheme::iso_cells: a sheet's cells or a box's cube faces where both iso-lines pass, found
// on the device (grid/iso_cells.hpp's test, changes_sign, as straddling_cells makes it on the
// host), so that tips and filaments at their own cadence copy back those squares alone, not the
// frame.
#include <algorithm>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/launch.hpp"
#include "schemes/cuda/device_fields.cuh"

namespace fhn::cuda {
namespace {

// Thread g takes node g % N of an nx x ny x nz grid (N nodes) and the square there normal to
// axis first_normal + g / N (a sheet's cells: normal z alone; a box's faces: x, y, z). On the
// first normal it counts into counts[1] where v >= v_iso and `outside` is zero (one atomic per
// warp), each node once; where the square lies in the grid, no corner is in `skip` and both
// v - v_iso and w - w_iso change sign over it, it appends the square to found[] (its slot from
// counts[0]; past `capacity` only counted).
__global__ void iso_cells_kernel(const real* __restrict__ v, const real* __restrict__ w,
                                 index_t nx, index_t ny, index_t nz, int first_normal,
                                 index_t threads, real v_iso, real w_iso,
                                 const std::uint8_t* __restrict__ skip,
                                 const std::uint8_t* __restrict__ outside, IsoCell* found,
                                 unsigned long long capacity, unsigned long long* counts) {
  const index_t g = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t n = nx * ny * nz;
  const bool valid = g < threads;
  const index_t node = valid ? g % n : 0;
  const int normal = first_normal + static_cast<int>(valid ? g / n : 0);
  const bool above = valid && normal == first_normal && v[node] >= v_iso && !(outside && outside[node]);
  const unsigned ones = __ballot_sync(0xffffffffu, above);
  if ((threadIdx.x & 31u) == 0 && ones != 0u)
    atomicAdd(&counts[1], static_cast<unsigned long long>(__popc(ones)));
  if (!valid) return;
  const index_t at[3] = {node % nx, (node / nx) % ny, node / (nx * ny)};
  const index_t extent[3] = {nx, ny, nz}, stride[3] = {1, nx, nx * ny};
  const int a = span_a(normal), b = span_b(normal);
  if (at[a] + 1 >= extent[a] || at[b] + 1 >= extent[b]) return;
  const index_t c[4] = {node, node + stride[a], node + stride[b], node + stride[a] + stride[b]};
  if (skip && (skip[c[0]] | skip[c[1]] | skip[c[2]] | skip[c[3]])) return;
  if (!changes_sign(v[c[0]] - v_iso, v[c[1]] - v_iso, v[c[2]] - v_iso, v[c[3]] - v_iso) ||
      !changes_sign(w[c[0]] - w_iso, w[c[1]] - w_iso, w[c[2]] - w_iso, w[c[3]] - w_iso))
    return;
  const unsigned long long slot = atomicAdd(&counts[0], 1ull);
  if (slot >= capacity) return;
  take_square(found[slot], at, normal, v, w, c);
}

// A host mask's device copy, uploaded once (nullptr: none).
const std::uint8_t* device_mask(const std::uint8_t* host, std::size_t n,
                                DeviceBuffer<std::uint8_t>& copy) {
  if (!host) return nullptr;
  if (copy.size() != n) {
    copy = DeviceBuffer<std::uint8_t>(n, "iso-line cell mask");
    copy.upload(host, n);
  }
  return copy.data();
}

}  // namespace

void DeviceScheme::iso_cells(real v_iso, real w_iso, const std::uint8_t* skip,
                             const std::uint8_t* outside, std::vector<IsoCell>& cells,
                             index_t& excited) const {
  const Domain& d = problem_.domain;
  if (!fields_.slab().whole() || d.dims < 2)
    return Scheme::iso_cells(v_iso, w_iso, skip, outside, cells, excited);
  const index_t nx = d.nodes[0], ny = d.nodes[1], nz = d.nodes[2];
  const auto n = static_cast<std::size_t>(nx * ny * nz);
  const int first_normal = d.dims == 3 ? 0 : 2;
  const index_t threads = static_cast<index_t>(n) * (3 - first_normal);
  const std::uint8_t* skip_d = device_mask(skip, n, iso_skip_);
  const std::uint8_t* outside_d = device_mask(outside, n, iso_outside_);
  if (iso_counts_.size() == 0) {
    iso_counts_ = DeviceBuffer<unsigned long long>(2, "iso-line cell counts");
    iso_found_ = DeviceBuffer<IsoCell>(4096, "iso-line cells");  // grown below
  }
  unsigned long long counts[2] = {0, 0};
  for (;;) {
    FHN_CUDA_CHECK(cudaMemset(iso_counts_.data(), 0, 2 * sizeof(unsigned long long)));
    iso_cells_kernel<<<blocks_for(threads), kBlock>>>(
        fields_.v(), fields_.w(), nx, ny, nz, first_normal, threads, v_iso, w_iso, skip_d,
        outside_d, iso_found_.data(), iso_found_.size(), iso_counts_.data());
    FHN_CUDA_CHECK_LAUNCH();
    iso_counts_.download(counts, 2);
    if (counts[0] <= iso_found_.size()) break;
    iso_found_ = DeviceBuffer<IsoCell>(static_cast<std::size_t>(counts[0] + counts[0] / 4),
                                       "iso-line cells");
  }
  cells.resize(static_cast<std::size_t>(counts[0]));
  if (!cells.empty()) iso_found_.download(cells.data(), cells.size());
  // The host's order (normal, k, j, i); the counter's is the device's.
  std::sort(cells.begin(), cells.end(), [](const IsoCell& a, const IsoCell& b) {
    if (a.normal != b.normal) return a.normal < b.normal;
    if (a.k != b.k) return a.k < b.k;
    return a.j != b.j ? a.j < b.j : a.i < b.i;
  });
  excited = static_cast<index_t>(counts[1]);
}

}  // namespace fhn::cuda
