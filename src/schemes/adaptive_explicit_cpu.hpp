#pragma once
// Forward Euler on a moving grid of base-grid nodes (docs/history/verification-2026-11.md,
// "Adaptive grid"), on the CPU.
//
// Each step: v+ = v + k (D u_xx(v) + f(v) - w + I),  w+ = w + k eps (v - gamma w) at every node of
// the current grid, u_xx from NonUniformLaplacian; the ends as in the uniform scheme (mirror
// ghost node, or the row replaced by a Dirichlet value or the first-order copy v_0 = v_1).
// Every regrid_every steps (and once at t = 0, from the initial state on the full base grid) the
// grid is rebuilt by select_nodes from v, w, their second derivatives and v_t = (v+ - v) / k of
// the step just taken, so that linear interpolation between the kept nodes errs by at most
// scheme.adaptive.tolerance, and v, w move onto it by interpolate_onto.
// Besides what select_nodes picks, every grid holds (required_ranges), within a layer of
// width max(inflection_radius, reach + 4 sqrt(D k regrid_every)) (see required_ranges):
//   - while a stimulus is on during any step before the next regrid, every base node of its
//     region and of the layer around it: each node the uniform scheme stimulates gets the same
//     current, and the steep edges the current raises are resolved from the start;
//   - every base node of the layer next to a Dirichlet end, where fronts are born;
//   - the base neighbour of a first-order no-flux end, so v_0 = v_1 copies the same node as on
//     the uniform grid.
#include "grid/adaptive_grid.hpp"
#include "grid/grid_stats.hpp"
#include "schemes/node_updates.hpp"
#include "schemes/scheme.hpp"

namespace fhn {

class AdaptiveExplicitCpu final : public Scheme {
 public:
  AdaptiveExplicitCpu(const Problem& problem, const AdaptiveSpec& spec);

  std::string name() const override { return "adaptive-grid explicit forward Euler (cpu)"; }
  index_t node_count() const override { return static_cast<index_t>(x_.size()); }
  index_t steps_done() const override { return step_; }
  void advance(index_t steps) override;
  // The current nodes (they change from frame to frame: Snapshot::nodes) with their v and w.
  void snapshot(Snapshot& out) const override;
  index_t first_non_finite() const override {
    return fhn::first_non_finite(v_.data(), w_.data(), static_cast<index_t>(v_.size()));
  }
  const GridStats* grid_stats() const override { return &stats_; }
  // The grid and v, w on it (regrids happen right after a step, so nothing else carries over).
  SchemeState save_state() const override;
  void restore_state(const SchemeState& state) override;

  // Base-grid index of each current node, ascending.
  const std::vector<index_t>& nodes() const { return nodes_; }

 private:
  // v_next_, w_next_ = one forward Euler step from v_, w_ at t = step_ dt.
  void evaluate();
  // rate_ = v_t = (v_next_ - v_) / k, the rate of change of the step evaluate() computed.
  void measure_rate();
  // Rebuilds the grid from v_, its v_xx and rate_, moves v_ and w_ onto it, records it.
  void regrid();
  // Makes `nodes` the current grid: positions, Laplacian weights, boundary rows, work arrays.
  void use_grid(std::vector<index_t> nodes);
  // Base ranges the grid used for steps step_ .. step_ + regrid_every - 1 must hold (see above).
  std::vector<NodeRange> required_ranges() const;

  Problem problem_;
  AdaptiveSpec spec_;
  real reach_;         // how far a wave can travel between two regrids (wave_reach)
  NodeParams params_;  // model, boundary rows; params_.n[0] is the current node count
  index_t step_ = 0;
  std::vector<index_t> nodes_;
  std::vector<real> x_, v_, w_;          // current grid and state at t = step_ dt
  std::vector<real> v_xx_;               // u_xx of v_ (evaluate() and regrid())
  std::vector<real> w_xx_;               // u_xx of w_ (regrid())
  std::vector<real> v_next_, w_next_;    // written by evaluate()
  std::vector<real> rate_;               // v_t at the nodes, for the next regrid
  NonUniformLaplacian laplacian_;
  std::vector<real> base_current_;       // I_stim on the base grid (empty without stimuli)
  std::vector<real> current_;            // I_stim at the current nodes
  GridStats stats_;
};

}  // namespace fhn
