#pragma once
// What a run's state looks like outside its scheme: a host copy of the solution on the run's
// grid (Snapshot, what the writers and derived outputs read at the output cadence) and the named
// arrays a checkpoint carries (SchemeState, which the schemes and the accumulating sinks fill).
// Plain data on the grid's Domain, below the schemes that fill them and the io/ writers and
// study/ sinks that read them (docs/ARCHITECTURE.md section 2).
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

// A host copy of the state, filled when output is due. The geometry is the run's Domain (a few
// numbers, copied with the values so that a snapshot outlives its scheme); v and w sit on its
// nodes (node order i + N_x j on a sheet), or, on the adaptive grid, on the base-grid nodes that
// `nodes` lists.
struct Snapshot {
  index_t step = 0;
  real t = 0.0;
  Domain domain;               // the run's uniform grid (the adaptive grid's base grid)
  std::vector<index_t> nodes;  // adaptive grid: the base-grid node of each value, ascending;
                               // empty: value i on node i of domain
  std::vector<real> v;
  std::vector<real> w;
  // The activation times the scheme records inside its steps (Scheme::record_activation), on the
  // nodes of domain: the first upward crossing of the threshold (NaN: none yet) and, when kept,
  // the latest; empty when the scheme records none.
  std::vector<real> activation_first, activation_last;

  // Where the values of a cable sit along x (pointers into this snapshot).
  CablePositions x() const { return {&domain, nodes.empty() ? nullptr : nodes.data()}; }
  // The grid lines of the values along `axis`: domain.coordinates(axis), except along x on the
  // adaptive grid, where they are the current nodes' positions.
  std::vector<real> coordinates(int axis) const;
};

// Everything needed to continue a run exactly (checkpoints): the step, named state arrays and,
// for the adaptive grid, the current nodes.
struct SchemeState {
  index_t step = 0;
  std::vector<index_t> nodes;  // base-grid indices of the current nodes (adaptive grid only)
  std::vector<std::pair<std::string, std::vector<real>>> arrays;  // "v", "w", "w_previous"

  void add(const std::string& name, std::vector<real> values) {
    arrays.emplace_back(name, std::move(values));
  }
  // The array called `name` with `size` entries; throws IoError naming what is missing.
  const std::vector<real>& get(const std::string& name, std::size_t size) const;
  // get(), with every value finite (NaN too when nan_allowed); IoError naming the entry else.
  const std::vector<real>& get_finite(const std::string& name, std::size_t size,
                                      bool nan_allowed = false) const;
  // The array called `name`, or nullptr.
  const std::vector<real>* find(const std::string& name) const {
    for (const auto& entry : arrays)
      if (entry.first == name) return &entry.second;
    return nullptr;
  }
  bool has(const std::string& name) const { return find(name) != nullptr; }
};

// A count stored in a checkpoint as a real: `value` when it is an integer in [0, max], else
// IoError naming `what` (a forged or damaged checkpoint must not reach a cast).
index_t checkpoint_count(real value, index_t max, const std::string& what);

}  // namespace fhn
