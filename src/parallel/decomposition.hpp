#pragma once
// Slab decomposition: the domain's last axis (y on a sheet, x on a cable; z of a box next) is cut
// into one contiguous range of planes per rank. A plane is every node with the same last
// coordinate: N_x nodes on a sheet, 1 on a cable. Rank r owns planes [first, first + count) and
// holds `halo` further planes on each side, copies of its neighbours' (refreshed by a
// HaloExchange), so that a stencil of reach `halo` needs nothing else. The arrays of a slab run
// over planes [first - halo, first + count + halo), halo planes included even at the domain's
// ends where nobody fills them. One rank is the whole domain with halo 0: the arrays of a plain
// run.
//
// Slabs keep whole planes contiguous in the node numbering (node = i + N_x j), so a halo is one
// contiguous block of memory, and a gather of the owned nodes in rank order is the global array.
#include <algorithm>
#include <vector>

#include "grid/domain.hpp"

namespace fhn {

struct Slab {
  int rank = 0;
  int ranks = 1;
  int axis = 0;          // the cut axis: dims - 1
  index_t plane = 1;     // nodes per plane
  index_t planes = 0;    // planes along the axis (N of the last axis)
  index_t first = 0;     // first owned plane
  index_t count = 0;     // owned planes
  index_t halo = 0;      // planes held on each side beyond the owned ones

  bool whole() const { return ranks == 1; }
  int below() const { return rank > 0 ? rank - 1 : -1; }  // the neighbour owning lower planes
  int above() const { return rank + 1 < ranks ? rank + 1 : -1; }
  index_t array_first() const { return first - halo; }     // global plane of the arrays' first
  index_t array_planes() const { return count + 2 * halo; }
  index_t array_nodes() const { return array_planes() * plane; }
  index_t owned_offset() const { return halo * plane; }     // array index of the first owned node
  index_t owned_nodes() const { return count * plane; }
  index_t global_offset() const { return first * plane; }   // global node of the first owned one

  // The array's nodes that lie in the domain (halo planes beyond its ends do not), one block in
  // both numberings: global nodes [global_first, global_first + count) are array nodes
  // [array_at, array_at + count). How a slab's arrays take their part of a global array.
  struct Present {
    index_t global_first, array_at, count;
  };
  Present present() const {
    const index_t lo = first - halo < 0 ? 0 : first - halo;
    const index_t hi = first + count + halo > planes ? planes : first + count + halo;
    return {lo * plane, (lo - array_first()) * plane, (hi - lo) * plane};
  }
};

// [first, first + count) of rank `rank` when n items (planes, sweep members) are shared by
// `ranks`: contiguous in rank order, counts differing by at most one, the lower ranks taking the
// extra ones (5 on 2 ranks: 0..2 and 3..4; with more ranks than items the last get none).
struct Range {
  index_t first = 0;
  index_t count = 0;
  index_t end() const { return first + count; }
};
Range split_range(index_t n, int rank, int ranks);

// Rank `rank` of `ranks` slabs of `domain` with `halo` halo planes: counts differ by at most one
// plane, the lower ranks taking the extra ones. Throws ConfigError when a rank would own fewer
// than `min_planes` planes or than its halo (a stencil or a pass reaching past the neighbour).
Slab make_slab(const Domain& domain, int rank, int ranks, index_t halo, index_t min_planes = 1);

// The slab's planes of a per-node array of the whole domain (`global`, in node order), halo
// planes included, those beyond the domain's ends holding T{} (zeros; a node no stencil reads).
// An empty array (a uniform parameter field) stays empty; the whole domain is the array itself.
template <class T>
std::vector<T> slab_part(const std::vector<T>& global, const Slab& slab) {
  if (global.empty() || slab.whole()) return global;
  std::vector<T> part(static_cast<std::size_t>(slab.array_nodes()), T{});
  const Slab::Present in = slab.present();
  std::copy(global.begin() + in.global_first, global.begin() + in.global_first + in.count,
            part.begin() + in.array_at);
  return part;
}

// Owned node counts of every rank, in rank order (for gathers and scatters).
std::vector<std::size_t> owned_node_counts(const Domain& domain, int ranks);

}  // namespace fhn
