// Forward Euler kernels on a box: one step per pass, and a temporally blocked kernel that
// advances up to kExplicitBoxMaxSteps steps per pass over memory.
//
// The step, per node (i, j, k) and step s (t = s dt, r = D / h^2):
//   v+ = v + dt (r ((d_xx + d_yy) + d_zz) v + f(v, w) + I(t)),   w+ = w + dt g(v, w),
// d_xx v = v_W - 2 v + v_E (2 (v_inner - v) at a no-flux face), likewise along y and z; a
// Dirichlet face holds its value.
//
// ---- Several steps per pass (2.5-D blocking) ----
// Spatial blocking in the (x, y) plane, streaming along z, and temporal blocking on top:
// Nguyen, Satish, Chhugani, Kim and Dubey, "3.5-D blocking optimization for stencil computations
// on modern CPUs and GPUs", SC 2010; the streaming along z as in Micikevicius, "3D finite
// difference computation on GPUs using CUDA", GPGPU-2, 2009.
//
// A block of 32 x 16 threads owns a tile of 64 x 32 columns (i, j): thread (lane, warp) the
// columns (x0 + lane + 32 a, y0 + warp + 16 b), a, b in {0, 1} (a warp's loads are 32
// consecutive values). It streams along z; level 0 is the state as loaded, level l the state
// after l steps. When plane p of level 0 arrives, level l = 1 .. K computes plane p - l from
// level l-1's planes p - l - 1, p - l and p - l + 1. Each level l < K keeps its last three planes
// of v in shared memory (a ring of three tile planes: the x and y neighbours and the z ones come
// from there) and its last two planes of w in the thread's registers (w has no neighbours to
// share): 3 x 17 KB of shared memory per level, one barrier per level and plane. Level K's plane
// is written to memory. Plane p + 1 is loaded while the levels of plane p compute (prefetched
// into registers). Registers, not shared memory, held the v planes in a first version: in fp64
// a level's 3 planes x 4 columns took 24 registers, and K = 2 already spilled.
//
// A tile's outermost columns lack neighbours (the zero pad stands in), so after l levels only the
// columns at least l from the tile's edge are exact: the tile is the written interior plus a
// halo of K columns per side, (64 - 2K) x (32 - 2K) columns written. Along z nothing is redone
// between consecutive planes; a block streams a range of planes [z_lo, z_hi) of one tile column,
// starting K planes below it (level l is computed from plane z_lo - K + l on, where it is
// exact; from plane 0 at the box's face) and ending K planes above. Nodes outside the box are
// zeros as loaded and never read by the nodes inside (a face node ignores its neighbour across
// the face), so faces are handled where they fall. Each node takes explicit_interior_update_of<3>
// inside and explicit_update_of<3>'s expression on a face (face_update), as the one-step kernel
// and the CPU: the same bits.
//
// Work balance: the tiles' planes, tile by tile, are cut into one contiguous share per block of
// a grid that fills the device once (the SMs times the blocks resident per SM): no tail wave, and
// a share that spans two tile columns starts its pipeline twice.
//
// Cost per node and step with tiles T = 64 x 32 and written interior I = (64 - 2K)(32 - 2K):
// DRAM (16 T / I + 16) / K bytes (read v, w of the tile, write the interior's v+, w+), against 32
// for one step per pass; arithmetic T / I times the useful work (K = 2: I / T = 0.82, 17.7 B;
// K = 3: 0.74, 12.6 B). Measured: see kExplicitBoxStepsPerPass (explicit_box_kernels.cuh).
#include "schemes/cuda/explicit_box_kernels.cuh"

#include <algorithm>
#include <climits>
#include <string>
#include <type_traits>

#include <cuda_pipeline.h>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "schemes/cuda/activation_record.cuh"
#include "schemes/cuda/explicit_kernels.cuh"

namespace fhn::cuda {
namespace {

// ---- One step per pass ----
// A block of 32 x 8 threads owns a tile of 32 x 16 columns (i, j) and streams a chunk of
// kPlanes planes along z; thread (lane, warp) computes the columns (x0 + lane, y0 + warp + 8 b),
// b in {0, 1}. The planes arrive in shared memory by asynchronous copies (cp.async) kAhead
// planes before they are needed: v in a ring of kAhead + 3 tile planes with a one-column halo
// (the x and y neighbours; the z ones are the ring's planes below and above), w in a ring of
// kAhead + 2 plane tiles. Copies in flight take no registers, so each thread keeps
// 2 (kAhead + 1) values of each array in flight at full occupancy. Per plane k: wait for this
// thread's copies up to plane k + 1; a barrier (everyone's copies have landed, and every read
// of plane k - 2's slots is done); issue plane k + kAhead + 1 into those slots; compute plane k.
// DRAM: 32 B per node (the halo's values are the neighbouring tiles' and come from the L2
// cache), plus v and w of one plane below and above each chunk of kPlanes.
//
// Measured on an H200 (fp64, `fhn bench` rows "box step", BENCHMARKS.md): 0.161 to 0.164 ms at
// 256^3 (85 to 88% of the copy bandwidth), 1.14 ms at 512^3 (90%). The kernel before it marched
// each thread's column with the node above and w loaded a plane at a time and the x and y
// neighbours read from the caches: 0.177 and 1.23 ms, bound by the latency of those loads.
// 60 registers, 4 blocks an SM.
// Tried: kPlanes = 32 (half the blocks, a tail wave) 0.169 to 0.172 ms; kAhead = 1 0.159 to
// 0.164; 5 blocks an SM (__launch_bounds__(256, 5): spills) 0.22.
constexpr int kLanes = 32, kWarps = 8, kPerThread = 2;
constexpr int kTileRows = kWarps * kPerThread;  // tile rows (j) a block computes
constexpr int kPlanes = 16;                     // planes (k) a block streams
constexpr int kAhead = 2;                       // planes in flight beyond the next
constexpr int kRingV = kAhead + 3, kRingW = kAhead + 2;

static_assert(2 * kTileRows == kLanes, "warp 2 copies the halo's two columns, a lane a row");

struct StreamTiles {
  real v[kRingV][kTileRows + 2][kLanes + 2];  // column (x, y) at [y + 1][x + 1]
  real w[kRingW][kTileRows][kLanes];
};

template <class K>
__global__ void __launch_bounds__(kLanes * kWarps)
    box_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                    real* __restrict__ v_next, real* __restrict__ w_next,
                    const __grid_constant__ NodeParams q, const __grid_constant__ K kin,
                    StimulusTable st, real t, index_t k_begin, index_t k_end,
                    ActivationArrays act) {
  __shared__ StreamTiles tiles;
  const int lane = threadIdx.x, warp = threadIdx.y;
  const index_t nx = q.n[0], ny = q.n[1], nz = q.n[2], plane_size = q.stride[2];
  const index_t x0 = blockIdx.x * static_cast<index_t>(kLanes);
  const index_t y0 = blockIdx.y * static_cast<index_t>(kTileRows);
  const index_t k0 = k_begin + blockIdx.z * static_cast<index_t>(kPlanes);
  const index_t k1 = k0 + kPlanes < k_end ? k0 + kPlanes : k_end;

  // The values this thread copies into each plane's slots: v and w at its columns, and for
  // warps 0 to 2 one value of the halo (warp 0: row -1, warp 1: row kTileRows, warp 2: column
  // -1 or kLanes). In-plane offset, -1 outside the box (a zero then stands in: a face node
  // never reads across its face).
  auto in_plane = [&](index_t i, index_t j) {
    return i >= 0 && i < nx && j >= 0 && j < ny ? i + nx * j : index_t{-1};
  };
  index_t own[kPerThread];
#pragma unroll
  for (int b = 0; b < kPerThread; ++b) own[b] = in_plane(x0 + lane, y0 + warp + kWarps * b);
  int halo_x = lane + 1, halo_y = 0;  // the halo value's slot position [halo_y][halo_x]
  index_t halo = -1;
  if (warp == 0 || warp == 1) {
    halo_y = warp == 0 ? 0 : kTileRows + 1;
    halo = in_plane(x0 + lane, y0 + (warp == 0 ? -1 : kTileRows));
  } else if (warp == 2) {
    const int row = lane % kTileRows, side = lane / kTileRows;  // lanes 0-15: -1, 16-31: kLanes
    halo_x = side == 0 ? 0 : kLanes + 1;
    halo_y = row + 1;
    halo = in_plane(x0 + (side == 0 ? -1 : kLanes), y0 + row);
  }
  const bool has_halo = warp <= 2;

  // Plane p (k0 - 1 <= p <= k1) into the slots issue_v, issue_w, one commit group per plane (an
  // empty one past k1, so that the count of groups in flight is the same at every plane).
  int issue_v = 0, issue_w = 0;
  auto issue = [&](index_t p) {
    if (p <= k1) {
      const bool held = p >= 0 && p < nz;
      const std::size_t base = static_cast<std::size_t>(p - q.plane0) * plane_size;
      auto copy = [&](real& slot, const real* a, index_t at) {
        if (held && at >= 0)
          __pipeline_memcpy_async(&slot, a + base + at, sizeof(real));
        else
          slot = 0.0;
      };
#pragma unroll
      for (int b = 0; b < kPerThread; ++b) {
        copy(tiles.v[issue_v][warp + kWarps * b + 1][lane + 1], v, own[b]);
        copy(tiles.w[issue_w][warp + kWarps * b][lane], w, own[b]);
      }
      if (has_halo) copy(tiles.v[issue_v][halo_y][halo_x], v, halo);
    }
    __pipeline_commit();
    issue_v = issue_v + 1 == kRingV ? 0 : issue_v + 1;
    issue_w = issue_w + 1 == kRingW ? 0 : issue_w + 1;
  };
#pragma unroll
  for (int d = 0; d < kAhead + 2; ++d) issue(k0 - 1 + d);  // planes k0 - 1 .. k0 + kAhead

  const bool inner_tile = x0 > 0 && x0 + kLanes < nx && y0 > 0 && y0 + kTileRows < ny;
  int below = 0, at_w = 1;  // the slots of plane k - 1 (v) and k (w); k0 - 1 took slots 0
  for (index_t k = k0; k < k1; ++k) {
    __pipeline_wait_prior(kAhead - 1);  // this thread's copies up to plane k + 1 have landed
    __syncthreads();
    issue(k + kAhead + 1);  // into the slots of plane k - 2
    const int centre = below + 1 == kRingV ? 0 : below + 1;
    const int above = centre + 1 == kRingV ? 0 : centre + 1;
    const bool inner_plane = inner_tile && k > 0 && k < nz - 1;
#pragma unroll
    for (int b = 0; b < kPerThread; ++b) {
      if (own[b] < 0) continue;
      const int x = lane + 1, y = warp + kWarps * b + 1;
      const real(&s)[kTileRows + 2][kLanes + 2] = tiles.v[centre];
      const index_t i = x0 + lane, j = y0 + y - 1;
      const real current = st.count > 0 ? stimulus_current(st, i, j, k, t, 0.0) : 0.0;
      const real west = s[y][x - 1], east = s[y][x + 1], south = s[y - 1][x],
                 north = s[y + 1][x], front = tiles.v[below][y][x], back = tiles.v[above][y][x],
                 c = s[y][x], wc = tiles.w[at_w][y - 1][lane];
      const real lower[3] = {west, south, front}, upper[3] = {east, north, back};
      const index_t node[kMaxAxes] = {i, j, k};
      const ExplicitPointUpdate out =
          inner_plane || (i > 0 && i < nx - 1 && j > 0 && j < ny - 1 && k > 0 && k < nz - 1)
              ? explicit_interior_update_of<3>(lower, c, upper, wc, current, q, kin)
              : explicit_update_of<3>(lower, c, upper, wc, current, node, q, kin);
      const std::size_t at = static_cast<std::size_t>(k - q.plane0) * plane_size + own[b];
      v_next[at] = out.v;
      w_next[at] = out.w;
      if (act.on()) record_crossing_in_kernel(act, static_cast<index_t>(at), c, out.v, t, q.k);
    }
    below = centre;
    at_w = at_w + 1 == kRingW ? 0 : at_w + 1;
  }
}

// ---- Several steps per pass (2.5-D blocking) ---------------------------------------------------
constexpr int kTileLanes = 32, kTileWarps = 16;  // threads along x (a warp) and y
constexpr int kPerX = 2, kPerY = 2;              // columns per thread along x and y
constexpr int kTileX = kTileLanes * kPerX, kTileY = kTileWarps * kPerY;
constexpr int kTileColumns = kPerX * kPerY;  // a thread's columns, n = a + kPerX b
static_assert(kTileX - 2 * kExplicitBoxMaxSteps >= kTileX / 2 &&
                  kTileY - 2 * kExplicitBoxMaxSteps >= kTileY / 2,
              "the halo of the deepest pass must leave at least half the tile's edge");

// explicit_update_of<3> at a node (i, j, k) that may lie on a face of the box of n_x x n_y x n_z
// nodes, from the values below and above it: the same expression, so the same bits,
//   D (L_h v) = r ((d_x + d_y) + d_z),  d_a = axis_difference(below_a, v, above_a, on the low
//   side, on the high side),
// spelled with the box's extents as ints and the axes written out. Built from the generic form
// (its per-axis tests against GridParams' 64-bit extents), this kernel had 40% more
// instructions and ran 4-6% slower on an H200 than before the point layer.
template <class K>
__device__ __forceinline__ ExplicitPointUpdate face_update(const real (&below)[3], real centre,
                                                           const real (&above)[3], real w,
                                                           real current, const int (&at)[3],
                                                           const int (&n)[3], const NodeParams& q,
                                                           const K& kin) {
  const real d = (axis_difference(below[0], centre, above[0], at[0] == 0, at[0] == n[0] - 1) +
                  axis_difference(below[1], centre, above[1], at[1] == 0, at[1] == n[1] - 1)) +
                 axis_difference(below[2], centre, above[2], at[2] == 0, at[2] == n[2] - 1);
  ExplicitPointUpdate out = explicit_point_update(centre, w, q.r * d, current, kin, q.k);
  const index_t node[kMaxAxes] = {at[0], at[1], at[2]};
  real held = 0.0;
  if (dirichlet_at<3>(q.sides, node, q.n, held)) out.v = held;
  return out;
}

// A level's last three planes of v in shared memory, plane c in slot c mod 3; column (x, y) of
// the tile at [y + 1][x + 1]: the pad around the tile (zeros, never written) stands in for the
// neighbours of the tile's outermost columns, which are never exact anyway.
using TilePlane = real[kTileY + 2][kTileX + 2];

// The planes [z_lo, z_hi) of the tile column whose lower left column (halo included) is
// (x0, y0), K = kSteps levels; ring[l][slot]: level l's v (l = 0 .. K - 1). Box sizes in int
// (the launcher checks a plane has fewer than 2^31 nodes, and so has the z axis). kRecord: every
// level's crossing test at the nodes the segment writes (`act`), which no other segment writes.
template <int kSteps, bool kStimuli, bool kRecord, class K>
__device__ __forceinline__ void box_blocked_segment(
    const real* __restrict__ v, const real* __restrict__ w, real* __restrict__ v_next,
    real* __restrict__ w_next, const NodeParams& q, const K& kin, const StimulusTable& st,
    index_t first_step, int x0, int y0, int z_lo, int z_hi, TilePlane (*ring)[3],
    const ActivationArrays& act) {
  constexpr int kHalo = kSteps;
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int nx = static_cast<int>(q.n[0]), ny = static_cast<int>(q.n[1]),
            nz = static_cast<int>(q.n[2]);
  const index_t plane_size = q.n[0] * q.n[1];
  // The planes the arrays hold and the box has.
  const int low = static_cast<int>(max(index_t{0}, q.plane0));
  const int high = static_cast<int>(min(q.n[2], q.plane0 + q.planes));
  // Whether every column of the tile lies off the box's x and y faces (then a node is interior
  // where its plane is, and inside the box).
  const bool inner_tile = x0 >= 1 && x0 + kTileX <= nx - 1 && y0 >= 1 && y0 + kTileY <= ny - 1;

  // This thread's columns: global (i, j), their index in a plane (-1 outside the box), and
  // whether they lie on an x or y face (bit n of on_face; columns outside the box do not: any
  // finite value will do there, and the interior expression gives one).
  int gi[kPerX], gj[kPerY], offset[kTileColumns];
  unsigned on_face = 0;
#pragma unroll
  for (int a = 0; a < kPerX; ++a) gi[a] = x0 + lane + kTileLanes * a;
#pragma unroll
  for (int b = 0; b < kPerY; ++b) gj[b] = y0 + warp + kTileWarps * b;
#pragma unroll
  for (int b = 0; b < kPerY; ++b)
#pragma unroll
    for (int a = 0; a < kPerX; ++a) {
      const int n = a + kPerX * b;
      offset[n] = gi[a] >= 0 && gi[a] < nx && gj[b] >= 0 && gj[b] < ny ? gi[a] + nx * gj[b] : -1;
      if (offset[n] >= 0 && (gi[a] == 0 || gi[a] == nx - 1 || gj[b] == 0 || gj[b] == ny - 1))
        on_face |= 1u << n;
    }

  // Level l's w at its planes a - 1 and a (a its newest, p - l), in registers (w has no
  // neighbours to share).
  real qw[kSteps][2][kTileColumns];
#pragma unroll
  for (int l = 0; l < kSteps; ++l)
#pragma unroll
    for (int n = 0; n < kTileColumns; ++n) qw[l][0][n] = qw[l][1][n] = 0.0;
  // Plane p's v and w (zeros outside the box and the arrays), loaded one plane ahead.
  real next_v[kTileColumns], next_w[kTileColumns];
  auto load = [&](int p) {
    const bool held = p >= low && p < high;
    const real* pv = v + (p - q.plane0) * plane_size;
    const real* pw = w + (p - q.plane0) * plane_size;
#pragma unroll
    for (int n = 0; n < kTileColumns; ++n) {
      next_v[n] = held && offset[n] >= 0 ? __ldg(pv + offset[n]) : 0.0;
      next_w[n] = held && offset[n] >= 0 ? __ldg(pw + offset[n]) : 0.0;
    }
  };
  const int p_first = max(z_lo - kHalo, low), p_end = z_hi + kHalo;
  load(p_first);
  int slot = p_first % 3;  // plane p's slot
  for (int p = p_first; p < p_end; ++p, slot = slot == 2 ? 0 : slot + 1) {
    // Level 0's plane p: v into its ring (the slot's plane p - 3 was last read by level 1 one
    // plane ago, before the barriers of levels 2 .. K), w into its queue.
#pragma unroll
    for (int b = 0; b < kPerY; ++b)
#pragma unroll
      for (int a = 0; a < kPerX; ++a) {
        const int n = a + kPerX * b;
        ring[0][slot][warp + kTileWarps * b + 1][lane + kTileLanes * a + 1] = next_v[n];
        qw[0][0][n] = qw[0][1][n];
        qw[0][1][n] = next_w[n];
      }
    if (p + 1 < p_end) load(p + 1);
#pragma unroll
    for (int l = 1; l <= kSteps; ++l) {
      const int c = p - l;  // the plane level l computes
      __syncthreads();      // level l-1's planes c - 1, c, c + 1 are in its ring
      // Exact from plane p_first + l on (from the face, plane 0, where the stream starts
      // there); planes outside the box are never read by those inside.
      const bool live = c >= (p_first == 0 ? 0 : p_first + l) && c < nz;
      const real t = step_time(first_step + l - 1, q.k);
      // The slots of planes c - 1, c, c + 1 (c = p - l, l <= 4).
      const int at_c = (slot + 6 - l) % 3;
      const TilePlane& s = ring[l - 1][at_c];
      const TilePlane& below = ring[l - 1][(at_c + 2) % 3];
      const TilePlane& above = ring[l - 1][(at_c + 1) % 3];
      real out_v[kTileColumns], out_w[kTileColumns];
      // Level l at the thread's columns; kInner: every one an interior node of the box. Else
      // each takes the interior expression, and the few on a face (a warp-divergent branch)
      // then the face expression instead.
      const bool plane_face = c == 0 || c == nz - 1;
      auto step = [&](auto inner_tag) {
        constexpr bool kInner = decltype(inner_tag)::value;
#pragma unroll
        for (int b = 0; b < kPerY; ++b)
#pragma unroll
          for (int a = 0; a < kPerX; ++a) {
            const int n = a + kPerX * b, x = lane + kTileLanes * a + 1,
                      y = warp + kTileWarps * b + 1;
            const real centre = s[y][x], wc = qw[l - 1][0][n];
            const real current =
                kStimuli ? stimulus_current(st, gi[a], gj[b], c, t, 0.0) : 0.0;
            const real lower[3] = {s[y][x - 1], s[y - 1][x], below[y][x]},
                       upper[3] = {s[y][x + 1], s[y + 1][x], above[y][x]};
            ExplicitPointUpdate u =
                explicit_interior_update_of<3>(lower, centre, upper, wc, current, q, kin);
            if (!kInner && (plane_face || (on_face >> n & 1u) != 0))
              u = face_update(lower, centre, upper, wc, current, {gi[a], gj[b], c},
                              {nx, ny, nz}, q, kin);
            out_v[n] = u.v;
            out_w[n] = u.w;
          }
      };
      if (!live) {  // any finite value: never read by an exact node
#pragma unroll
        for (int n = 0; n < kTileColumns; ++n) {
          out_v[n] = 0.0;
          out_w[n] = 0.0;
        }
      } else if (inner_tile && c > 0 && c < nz - 1) {
        step(std::true_type{});
      } else {
        step(std::false_type{});
      }
#pragma unroll
      for (int b = 0; b < kPerY; ++b)
#pragma unroll
        for (int a = 0; a < kPerX; ++a) {
          const int n = a + kPerX * b, x = lane + kTileLanes * a, y = warp + kTileWarps * b;
          const bool written = live && c >= z_lo && c < z_hi && offset[n] >= 0 && x >= kHalo &&
                               x < kTileX - kHalo && y >= kHalo && y < kTileY - kHalo;
          if (kRecord && written)
            record_crossing_in_kernel(act, (c - q.plane0) * plane_size + offset[n], s[y + 1][x + 1],
                            out_v[n], t, q.k);
          if (l < kSteps) {
            // Level l's plane c into its ring: the slot's plane c - 3 was last read by level
            // l + 1 one plane ago, before this plane's barriers.
            ring[l][at_c][y + 1][x + 1] = out_v[n];
            qw[l][0][n] = qw[l][1][n];
            qw[l][1][n] = out_w[n];
          } else if (written) {
            // Level K: the tile's interior columns inside the box, to memory.
            const index_t at = (c - q.plane0) * plane_size + offset[n];
            v_next[at] = out_v[n];
            w_next[at] = out_w[n];
          }
        }
    }
  }
  __syncthreads();  // the rings' last reads before the next segment writes them
}

// The tiles (tiles_x x tiles_y, x fastest) times the planes [k_begin, k_end), cut into
// gridDim.x contiguous shares; each share streams its planes of one or more tile columns.
template <int kSteps, bool kStimuli, bool kRecord, class K>
__global__ void __launch_bounds__(kTileLanes * kTileWarps, 1)
    box_blocked_kernel(const real* __restrict__ v, const real* __restrict__ w,
                       real* __restrict__ v_next, real* __restrict__ w_next,
                       const __grid_constant__ NodeParams q, const __grid_constant__ K kin,
                       StimulusTable st, index_t first_step, index_t k_begin, index_t k_end,
                       index_t tiles_x, index_t tiles_y, ActivationArrays act) {
  extern __shared__ real shared[];
  TilePlane(*ring)[3] = reinterpret_cast<TilePlane(*)[3]>(shared);  // [kSteps][3]
  // Zeros in the pads (and everywhere: finite values in every slot).
  constexpr int kSharedValues = static_cast<int>(sizeof(TilePlane) / sizeof(real)) * 3 * kSteps;
  for (int at = threadIdx.x + kTileLanes * threadIdx.y; at < kSharedValues;
       at += kTileLanes * kTileWarps)
    shared[at] = 0.0;
  __syncthreads();
  constexpr int kInnerX = kTileX - 2 * kSteps, kInnerY = kTileY - 2 * kSteps;
  const index_t planes = k_end - k_begin;
  const index_t work = tiles_x * tiles_y * planes;
  index_t share = work * blockIdx.x / gridDim.x;
  const index_t share_end = work * (blockIdx.x + 1) / gridDim.x;
  while (share < share_end) {
    const index_t tile = share / planes;
    const index_t z_lo = k_begin + share % planes;
    const index_t z_hi = k_begin + min(planes, share_end - tile * planes);
    box_blocked_segment<kSteps, kStimuli, kRecord>(
        v, w, v_next, w_next, q, kin, st, first_step,
        static_cast<int>((tile % tiles_x) * kInnerX - kSteps),
        static_cast<int>((tile / tiles_x) * kInnerY - kSteps), static_cast<int>(z_lo),
        static_cast<int>(z_hi), ring, act);
    share = tile * planes + (z_hi - k_begin);
  }
}

// The blocks of `kernel` resident on one SM of the current device (with `shared` bytes of
// dynamic shared memory each) times its SMs: a grid that fills the device once.
template <class Kernel>
index_t device_filling_blocks(Kernel kernel, int threads, std::size_t shared) {
  int device = 0, sms = 1, per_sm = 1;
  FHN_CUDA_CHECK(cudaGetDevice(&device));
  FHN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  FHN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
  return static_cast<index_t>(sms) * std::max(per_sm, 1);
}

template <int kSteps, class K>
void launch_box_blocked(const real* v, const real* w, real* v_next, real* w_next,
                        const NodeParams& q, const K& kin, const StimulusTable& stimuli,
                        index_t first_step, cudaStream_t stream, index_t k_begin, index_t k_end,
                        const ActivationArrays& act) {
  constexpr int kInnerX = kTileX - 2 * kSteps, kInnerY = kTileY - 2 * kSteps;
  constexpr std::size_t kShared = sizeof(TilePlane) * 3 * kSteps;
  const index_t tiles_x = (q.n[0] + kInnerX - 1) / kInnerX;
  const index_t tiles_y = (q.n[1] + kInnerY - 1) / kInnerY;
  const index_t work = tiles_x * tiles_y * (k_end - k_begin);
  auto launch = [&](auto kernel) {
    constexpr int kThreads = kTileLanes * kTileWarps;
    FHN_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kShared)));
    const index_t blocks = std::min(work, device_filling_blocks(kernel, kThreads, kShared));
    kernel<<<static_cast<unsigned>(blocks), dim3(kTileLanes, kTileWarps), kShared, stream>>>(
        v, w, v_next, w_next, q, kin, stimuli, first_step, k_begin, k_end, tiles_x, tiles_y, act);
  };
  // Without stimuli the stimulus code is compiled out, and so is the crossing test without
  // recording.
  if (act.on())
    launch(stimuli.count > 0 ? box_blocked_kernel<kSteps, true, true, K>
                             : box_blocked_kernel<kSteps, false, true, K>);
  else if (stimuli.count > 0)
    launch(box_blocked_kernel<kSteps, true, false, K>);
  else
    launch(box_blocked_kernel<kSteps, false, false, K>);
}

}  // namespace

void launch_explicit_box_step(const real* v, const real* w, real* v_next, real* w_next,
                              const NodeParams& q, const Kinetics& kinetics,
                              const StimulusTable& stimuli, index_t step, cudaStream_t stream,
                              index_t k_begin, index_t k_end, const ActivationArrays& activation) {
  if (k_end < 0) {
    k_begin = q.plane0;
    k_end = q.plane0 + q.planes;
  }
  // The planes read: the range and, inside the box, one plane on each side.
  const index_t read_first = k_begin > 0 ? k_begin - 1 : 0;
  const index_t read_end = k_end < q.n[2] ? k_end + 1 : q.n[2];
  FHN_VERIFY(q.dims == 3 && q.n[0] >= 3 && q.n[1] >= 3 && q.n[2] >= 3 && k_begin >= 0 &&
                 k_begin <= k_end && k_end <= q.n[2] && read_first >= q.plane0 &&
                 read_end <= q.plane0 + q.planes,
             InternalError,
             "box kernel: 3 x 3 x 3 nodes or more, and planes [" + std::to_string(k_begin) + ", " +
                 std::to_string(k_end) + ") with their neighbours inside the arrays' [" +
                 std::to_string(q.plane0) + ", " + std::to_string(q.plane0 + q.planes) + ")");
  verify_explicit_arrays("box kernel", v, w, v_next, w_next, q.n[0] * q.n[1] * q.planes, 27,
                         stimuli);
  if (k_end == k_begin) return;
  const dim3 grid(static_cast<unsigned>((q.n[0] + kLanes - 1) / kLanes),
                  static_cast<unsigned>((q.n[1] + kTileRows - 1) / kTileRows),
                  static_cast<unsigned>((k_end - k_begin + kPlanes - 1) / kPlanes));
  const real t = step_time(step, q.k);
  with_kinetics(kinetics, [&](const auto& kin) {
    box_step_kernel<<<grid, dim3(kLanes, kWarps), 0, stream>>>(v, w, v_next, w_next, q, kin,
                                                               stimuli, t, k_begin, k_end,
                                                               activation);
  });
  FHN_CUDA_CHECK_LAUNCH();
}


void launch_explicit_box_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                       const NodeParams& q, const Kinetics& kinetics,
                                       const StimulusTable& stimuli, index_t first_step,
                                       int steps, cudaStream_t stream, index_t k_begin,
                                       index_t k_end, const ActivationArrays& activation) {
  FHN_VERIFY(steps >= 1 && steps <= kExplicitBoxMaxSteps, InternalError,
             "blocked box kernel: 1 to " + std::to_string(kExplicitBoxMaxSteps) +
                 " steps per pass, not " + std::to_string(steps));
  if (steps == 1) {  // the same node updates, without the tiles' halo
    launch_explicit_box_step(v, w, v_next, w_next, q, kinetics, stimuli, first_step, stream,
                             k_begin, k_end, activation);
    return;
  }
  if (k_end < 0) {
    k_begin = q.plane0;
    k_end = q.plane0 + q.planes;
  }
  // The planes read: the range and, inside the box, `steps` planes on each side.
  const index_t read_first = std::max<index_t>(k_begin - steps, 0);
  const index_t read_end = std::min<index_t>(k_end + steps, q.n[2]);
  FHN_VERIFY(q.dims == 3 && q.n[0] >= 3 && q.n[1] >= 3 && q.n[2] >= 3 && k_begin >= 0 &&
                 k_begin <= k_end && k_end <= q.n[2] && read_first >= q.plane0 &&
                 read_end <= q.plane0 + q.planes && q.n[0] * q.n[1] <= INT_MAX &&
                 q.n[2] <= INT_MAX,
             InternalError,
             "blocked box kernel: 3 x 3 x 3 nodes or more, planes and the z axis of fewer than "
             "2^31 nodes, and planes [" +
                 std::to_string(k_begin) + ", " + std::to_string(k_end) + ") with " +
                 std::to_string(steps) + " neighbours each side inside the arrays' [" +
                 std::to_string(q.plane0) + ", " + std::to_string(q.plane0 + q.planes) + ")");
  verify_explicit_arrays("blocked box kernel", v, w, v_next, w_next, q.n[0] * q.n[1] * q.planes,
                         27, stimuli);
  if (k_end == k_begin) return;
  with_kinetics(kinetics, [&](const auto& kin) {
    auto launch = [&](auto depth) {
      launch_box_blocked<decltype(depth)::value>(v, w, v_next, w_next, q, kin, stimuli,
                                                 first_step, stream, k_begin, k_end, activation);
    };
    if (steps == 2)
      launch(std::integral_constant<int, 2>{});
    else if (steps == 3)
      launch(std::integral_constant<int, 3>{});
    else
      launch(std::integral_constant<int, 4>{});
  });
  FHN_CUDA_CHECK_LAUNCH();
}

}  // namespace fhn::cuda
