#pragma once
// Node-count statistics of a scheme whose grid changes during the run (adaptive_explicit):
// one record per regrid for grid.csv, and the mean and largest node count for summary.json.
#include <algorithm>
#include <vector>

#include "core/types.hpp"

namespace fhn {

struct GridRecord {
  index_t step = 0;   // the grid is used from this step on
  real t = 0.0;       // step * dt
  index_t nodes = 0;
};

class GridStats {
 public:
  explicit GridStats(index_t base_nodes = 0) : base_nodes_(base_nodes) {}

  void record_regrid(index_t step, real t, index_t nodes) {
    regrids_.push_back({step, t, nodes});
    max_nodes_ = std::max(max_nodes_, nodes);
  }
  // `steps` time steps taken on a grid of `nodes` nodes.
  void count_steps(index_t nodes, index_t steps) {
    node_steps_ += static_cast<real>(nodes) * static_cast<real>(steps);
    steps_ += steps;
  }

  index_t base_nodes() const { return base_nodes_; }
  // Sum over the steps taken of the node count each step worked on.
  real node_steps() const { return node_steps_; }
  // node_steps / steps: the node count averaged over the time steps taken (the first grid's
  // count before any step).
  real mean_nodes() const {
    if (steps_ > 0) return node_steps_ / static_cast<real>(steps_);
    return regrids_.empty() ? 0.0 : static_cast<real>(regrids_.front().nodes);
  }
  // The largest grid of the run (regrids included that no step has used yet).
  index_t max_nodes() const { return max_nodes_; }
  const std::vector<GridRecord>& regrids() const { return regrids_; }

 private:
  index_t base_nodes_;
  index_t max_nodes_ = 0;
  index_t steps_ = 0;
  real node_steps_ = 0.0;
  std::vector<GridRecord> regrids_;
};

}  // namespace fhn
