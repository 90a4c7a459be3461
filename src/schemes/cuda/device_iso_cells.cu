// DeviceScheme::iso_cells: a sheet's cells or a box's cube faces where both iso-lines pass, found
// on the device (grid/iso_cells.hpp's test, changes_sign, as straddling_cells makes it on the
// host), so that tips and filaments at their own cadence copy back those squares alone, not the
// frame.
#include <algorithm>
#include <string>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/launch.hpp"
#include "schemes/cuda/device_fields.cuh"

namespace fhn::cuda {
namespace {

// The excited count's slots: each block adds its count to slot blockIdx.x % kExcitedSlots (one
// address for all would serialise the blocks' atomics), and the host sums the slots.
constexpr unsigned kExcitedSlots = 128;

// The square at `at` normal to `normal`, corners c[4]: appended to found[] where no corner is in
// `skip` and both v - v_iso and w - w_iso change sign over it (the slot from *count; past
// `capacity` only counted).
__device__ void try_square(const real* __restrict__ v, const real* __restrict__ w, real v_iso,
                           real w_iso, const std::uint8_t* __restrict__ skip, const index_t at[3],
                           int normal, const index_t c[4], IsoCell* found,
                           unsigned long long capacity, unsigned long long* count) {
  if (skip && (skip[c[0]] | skip[c[1]] | skip[c[2]] | skip[c[3]])) return;
  if (!changes_sign(v[c[0]] - v_iso, v[c[1]] - v_iso, v[c[2]] - v_iso, v[c[3]] - v_iso) ||
      !changes_sign(w[c[0]] - w_iso, w[c[1]] - w_iso, w[c[2]] - w_iso, w[c[3]] - w_iso))
    return;
  const unsigned long long slot = atomicAdd(count, 1ull);
  if (slot < capacity) take_square(found[slot], at, normal, v, w, c);
}

// A thread per node (i, j, k) of an nx x ny x nz grid: i from the block's x and the thread, j
// and k the block's y and z (no division). At each node the squares there normal to
// first_normal..z (a sheet's cells: normal z alone; a box's faces: x, y, z) that lie in the grid
// go to try_square, in the order x, y, z; the nodes with v >= v_iso where `outside` is zero are
// summed per block and added to counts[1 + the block's slot]. The squares at a node use its
// cube's corners but the far one (7 in a box, 4 on a sheet): where v - v_iso has one sign over
// those (min > 0 or max < 0), it has over each square, so none is tried (one test per node, not
// one per square). Node indices in 32 bits (the launch refuses grids of 2^32 nodes or more); a
// square's arrays are built only where it is tried.
__global__ void iso_cells_kernel(const real* __restrict__ v, const real* __restrict__ w,
                                 unsigned nx, unsigned ny, unsigned nz, int first_normal,
                                 real v_iso, real w_iso, const std::uint8_t* __restrict__ skip,
                                 const std::uint8_t* __restrict__ outside, IsoCell* found,
                                 unsigned long long capacity, unsigned long long* counts) {
  const unsigned sx = 1u, sy = nx, sz = nx * ny;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  unsigned excited = 0;
  if (i < nx) {
    const unsigned node = i + sy * j + sz * k;
    const real here = v[node];
    excited += here >= v_iso && !(outside && outside[node]) ? 1u : 0u;
    const bool xn = i + 1 < nx, yn = j + 1 < ny, zn = k + 1 < nz;
    real lo = here - v_iso, hi = lo;
    auto see = [&](bool there, unsigned corner) {
      if (!there) return;
      const real d = v[corner] - v_iso;
      lo = d < lo ? d : lo;
      hi = d > hi ? d : hi;
    };
    see(xn, node + sx);
    see(yn, node + sy);
    see(zn, node + sz);
    see(xn && yn, node + sx + sy);
    see(xn && zn, node + sx + sz);
    see(yn && zn, node + sy + sz);
    auto square = [&](int normal, bool there, unsigned sa, unsigned sb) {
      if (normal < first_normal || !there) return;
      const index_t at[3] = {i, j, k};
      const index_t c[4] = {node, node + sa, node + sb, node + sa + sb};
      try_square(v, w, v_iso, w_iso, skip, at, normal, c, found, capacity, &counts[0]);
    };
    if (!(lo > 0.0 || hi < 0.0)) {
      square(0, yn && zn, sy, sz);
      square(1, xn && zn, sx, sz);
      square(2, xn && yn, sx, sy);
    }
  }
  // The block's count: each warp's sum (shuffles), then the warps' (shared memory).
  for (int offset = 16; offset > 0; offset /= 2) excited += __shfl_down_sync(0xffffffffu, excited, offset);
  __shared__ unsigned warps[kBlock / 32];
  if ((threadIdx.x & 31u) == 0) warps[threadIdx.x / 32] = excited;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long block = 0;
    for (unsigned k = 0; k < blockDim.x / 32; ++k) block += warps[k];
    if (block != 0) atomicAdd(&counts[1 + (blockIdx.x + blockIdx.y) % kExcitedSlots], block);
  }
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
  FHN_VERIFY(n < (std::size_t{1} << 32) && ny <= 65535 && nz <= 65535, DeviceError,
             "iso-line cells: a grid of 2^32 nodes or more, or of more than 65535 along y or z (" +
                 std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz) + ")");
  const std::uint8_t* skip_d = device_mask(skip, n, iso_skip_);
  const std::uint8_t* outside_d = device_mask(outside, n, iso_outside_);
  constexpr std::size_t kCounts = 1 + kExcitedSlots;  // the squares, the excited nodes' slots
  if (iso_counts_.size() == 0) {
    iso_counts_ = DeviceBuffer<unsigned long long>(kCounts, "iso-line cell counts");
    iso_found_ = DeviceBuffer<IsoCell>(4096, "iso-line cells");  // grown below
  }
  unsigned long long counts[kCounts] = {};
  for (;;) {
    FHN_CUDA_CHECK(cudaMemset(iso_counts_.data(), 0, kCounts * sizeof(unsigned long long)));
    iso_cells_kernel<<<dim3(blocks_for(nx), static_cast<unsigned>(ny), static_cast<unsigned>(nz)),
                       kBlock>>>(
        fields_.v(), fields_.w(), static_cast<unsigned>(nx), static_cast<unsigned>(ny),
        static_cast<unsigned>(nz), first_normal, v_iso, w_iso, skip_d, outside_d,
        iso_found_.data(), iso_found_.size(), iso_counts_.data());
    FHN_CUDA_CHECK_LAUNCH();
    iso_counts_.download(counts, kCounts);
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
  excited = 0;
  for (std::size_t slot = 1; slot < kCounts; ++slot) excited += static_cast<index_t>(counts[slot]);
}

}  // namespace fhn::cuda
