#pragma once
// Building blocks of convergence studies: run a config to its end without writing anything,
// compare solutions of different resolutions on their common nodes, and observed orders.
#include <vector>

#include "config/study_config.hpp"
#include "grid/snapshot.hpp"

namespace fhn {

// Runs `config` to time.end in memory and returns the final state.
Snapshot final_state(const Config& config);

// The fine solution's values (fine_values, in the fine grid's node order) at the coarse nodes,
// on a cable (y empty) or a sheet (node (i, j) at (x_i, y_j), order i + N_x j). The fine grid
// must contain every coarse node (fine spacing = coarse spacing / integer); each coarse node is
// matched with the fine node at the same position, axis by axis.
std::vector<real> restrict_to(const Snapshot& coarse, const Snapshot& fine,
                              const std::vector<real>& fine_values);

// Distance between a coarse and a fine solution's v on the coarse nodes (as restrict_to), each
// on its base grid (an adaptive run's v interpolated linearly between its nodes): an adaptive run's error is that of its field over the whole
// domain, not over the nodes it keeps, which sit where the error is largest (measured there, a
// front's RMSE came out 2.6x the base grid's).
real distance_on_common_nodes(const Snapshot& coarse, const Snapshot& fine, Norm norm);

// Observed order from errors at step sizes h and h / ratio: log(e_h / e_{h/ratio}) / log(ratio).
real observed_order(real error_coarse, real error_fine, real ratio = 2.0);

// Orders without a reference solution, from levels refined by `ratio` each time (in dx or dt):
// d_k = |u_k - u_{k+1}| on the common nodes; d_k / d_{k+1} -> ratio^p, so each pair of
// successive differences gives one observed order (levels.size() - 2 of them).
std::vector<real> successive_orders(const std::vector<Snapshot>& levels, Norm norm,
                                    real ratio = 2.0);

}  // namespace fhn
