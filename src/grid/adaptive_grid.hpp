#pragma once
// The moving grid of scheme.type: adaptive_explicit (docs/history/verification-2026-11.md,
// "Adaptive grid"). Its nodes are a subset of the uniform base grid x_j = j h, j = 0..N-1: which
// nodes to keep (select_nodes), how the solution moves onto a new grid (interpolate_onto), and the
// second derivative on such a non-uniform grid (NonUniformLaplacian).
#include <vector>

#include "core/types.hpp"
#include "grid/adaptive_spec.hpp"

namespace fhn {

// ---- Second derivative on a non-uniform grid ----------------------------------------------------
// The parabola p through (x_{i-1}, u_{i-1}), (x_i, u_i), (x_{i+1}, u_{i+1}) has, in Lagrange
// form, the constant second derivative p'' = 2 sum_m u_m / prod_{l != m} (x_m - x_l), i.e. with
// h_l = x_i - x_{i-1} and h_r = x_{i+1} - x_i
//   u_xx(x_i) ~ 2 [u_{i-1} / (h_l (h_l + h_r)) - u_i / (h_l h_r) + u_{i+1} / (h_r (h_l + h_r))].
// Exact for quadratics. Taylor expansion about x_i:
//   p'' = u'' + (h_r - h_l) u''' / 3 + (h_l^2 - h_l h_r + h_r^2) u'''' / 12 + ...,
// first order where the spacing changes, and the usual (u_{i-1} - 2 u_i + u_{i+1}) / h^2, second
// order, where h_l = h_r.
// End nodes: a ghost node mirrors the first interval, x_{-1} = x_0 - h_0 with h_0 = x_1 - x_0 and
// u_{-1} = u_1 (u_x = 0 at the end to second order), so h_l = h_r = h_0 and
//   u_xx(x_0) ~ 2 (u_1 - u_0) / h_0^2,   u_xx(x_{n-1}) ~ 2 (u_{n-2} - u_{n-1}) / h_{n-2}^2,
// the uniform scheme's no-flux rows. Where a boundary condition replaces an end row (Dirichlet,
// first-order no-flux) the scheme overrides the result.
// Forward Euler on v_t = D v_xx with these weights keeps the maximum principle when k D c_i <= 1,
// c_i = 2 / (h_l h_r) (ends: 2 / h_0^2): every spacing is at least the base h, so the base grid's
// diffusion limit k <= h^2 / (2 D) covers every grid.
class NonUniformLaplacian {
 public:
  NonUniformLaplacian() = default;
  // Weights for the strictly increasing nodes x, at least 2 of them.
  explicit NonUniformLaplacian(const std::vector<real>& x);

  index_t size() const { return static_cast<index_t>(centre_.size()); }

  // u_xx at an interior node, 0 < i < n-1.
  real interior(const real* u, index_t i) const { return weights().interior(u, i); }
  // u_xx at any node; the ends through their mirrored ghost nodes.
  real at(const real* u, index_t i) const {
    const index_t last = size() - 1;
    if (i == 0) return centre_[0] * (u[1] - u[0]);
    if (i == last) return centre_[last] * (u[last - 1] - u[last]);
    return interior(u, i);
  }
  // out[i] = u_xx at every node. Reads u and the three weights, writes out: 40 B per node.
  void apply(const real* u, real* out) const;

 private:
  // The weights as plain pointers: a loop that stores to another array need not reload them
  // after every store, and vectorises.
  struct Weights {
    const real* left;
    const real* centre;
    const real* right;
    real interior(const real* u, index_t i) const {
      return left[i] * u[i - 1] - centre[i] * u[i] + right[i] * u[i + 1];
    }
  };
  Weights weights() const { return {left_.data(), centre_.data(), right_.data()}; }

  // 2 / (h_l (h_l + h_r)), 2 / (h_l h_r), 2 / (h_r (h_l + h_r)); at the ends centre = 2 / h_0^2.
  std::vector<real> left_, centre_, right_;
};

// ---- Node selection ---------------------------------------------------------------------------
// Base-grid indices first..last, inclusive.
struct NodeRange {
  index_t first = 0;
  index_t last = -1;
};

// The solution on the current grid, as the refinement criteria see it (arrays of n entries).
struct GridSample {
  index_t n = 0;
  const index_t* nodes = nullptr;  // base-grid index of each node, ascending
  const real* x = nullptr;
  const real* v = nullptr;
  const real* w = nullptr;
  const real* v_xx = nullptr;      // NonUniformLaplacian::apply of v
  const real* w_xx = nullptr;      // NonUniformLaplacian::apply of w
  const real* v_t = nullptr;       // rate of change of v over the last time step
};

// The inflection points of the wavefronts in `s`: the zeros of v_xx at which |v_x| has a local
// maximum above `slope_threshold`. Between neighbouring interior nodes i, i+1 with secant slope
// m = (v_{i+1} - v_i) / (x_{i+1} - x_i), a front's inflection lies where
//   |m| > slope_threshold,   m v_xx(x_i) > 0 >= m v_xx(x_{i+1})
// (v_x grows in magnitude up to there and shrinks after it: the steepest point of a rise or a
// fall), at the zero of the linear interpolant of v_xx,
//   x* = x_i + (x_{i+1} - x_i) v_xx(x_i) / (v_xx(x_i) - v_xx(x_{i+1})).
// Zeros of v_xx in flat regions (round-off, exponential tails) and minima of |v_x| are not fronts.
std::vector<real> front_inflections(const GridSample& s, real slope_threshold);

// The nodes of the next grid: ascending base-grid indices of a grid of base_nodes nodes and
// spacing dx (configs/README.md, `scheme`: the rules; docs/history/verification-2026-11.md,
// "Adaptive grid").
//
// Each base node j gets a widest allowed spacing S_j (in base nodes), the least of
//   error:      the spacing at which linear interpolation errs by at most `bound`. On an
//               interval of width H, |u - linear interpolant| <= H^2 max|u_xx| / 8, so
//                 H_j = sqrt(8 bound / C_j),  S_j = floor(H_j / dx),
//               with C_j = max(|v_xx_i|, |w_xx_i|) over the current nodes i whose neighbourhood
//               [x_{i-1} - reach, x_{i+1} + reach] holds x_j: the curvature a node sees on both
//               of its intervals, carried as far as a wave can move (`reach`) before the next
//               regrid. The bound is the tolerance, or the base grid's own largest
//               interpolation error where that is smaller, down to a tenth of the tolerance,
//                 bound = min(tolerance, max(tolerance / 10, dx^2 C_max / 8)),
//               C_max = max_i max(|v_xx_i|, |w_xx_i|), so that H_j <= dx sqrt(C_max / C_j)
//               above the floor: a tolerance far above the base grid's own error (a fine dx, a
//               smooth wave) no longer lets the grid add several times the uniform run's error
//               (docs/history/verification-2026-11.md, "The base grid's bound"), and a
//               nearly flat state (C_max -> 0) still stays coarse. With hysteresis, node i's
//               stride is max(min(g_i, S(bound)), S(bound / 4)), g_i the wider of its current
//               intervals: kept until it errs by more than bound, widened only where bound / 4
//               allows;
//   coarse:     coarse_stride everywhere;
//   gradient:   gradient_stride on [nodes[i], nodes[i+1]] for every interval with
//               |v_{i+1} - v_i| / (x_{i+1} - x_i) > gradient_threshold (when gradient_stride > 0);
//   rate:       rate_stride on [nodes[i-1], nodes[i+1]] (clamped to the ends) for every node with
//               |v_t| > rate_threshold (when rate_stride > 0);
//   inflection: 1 within inflection_radius of each front_inflections point x* (with
//               gradient_threshold as its slope threshold; when inflection_radius > 0);
//   keep:       1 on the given ranges (the scheme's: stimulated regions, the layer next to a
//               Dirichlet end, the base neighbour of a first-order no-flux end);
//   non-finite: 1 at every node whose v, w or v_t is NaN or infinite, so a blow-up stays.
// The grid then steps from j = 0 through each coarse cell [c, c + coarse_stride] (c a multiple
// of coarse_stride; both ends and every c are nodes) by the widest power of two s with
//   (j - c) mod s = 0,   j + s <= c + coarse_stride (or N-1),   s <= S_k for every j < k < j+s:
// no interval is wider than the spacing allowed at a base node inside it, and aligned steps put a
// node back where it was when the allowed spacing has not changed.
// Why the error bound holds: the current grid's v is piecewise linear with slope jumps
// v_xx_k (h_l + h_r) / 2 at its nodes k, so on a new interval [a, b] of width H its distance
// from the chord is sum_k G(x, x_k) v_xx_k (h_l + h_r) / 2, with the Green's function of u'' on
// [a, b], G(x, xi) = (min(x, xi) - a)(b - max(x, xi)) / H. At a node x, with a and b nodes of
// the current grid, that sum is the trapezoid rule, exact for G, so at every dropped node, v and
// w alike,
//   |error| <= C int_a^b G dxi = C (x - a)(b - x) / 2 <= C H^2 / 8 <= bound <= tolerance.
// (Where the new grid refines, an end a inside a current interval [x_{k-1}, x_k] adds to the
// sum the part of that interval outside [a, b]: the bound then holds to within that share.)
std::vector<index_t> select_nodes(const AdaptiveSpec& spec, index_t base_nodes, real dx,
                                  real reach, const GridSample& s,
                                  const std::vector<NodeRange>& keep);

// ---- Moving the solution ----------------------------------------------------------------------
// values[0..n) (on the ascending nodes old_x[0..n), n >= 2) at the ascending new_x, every
// new_x[i] in [old_x[0], old_x[n-1]]: a node of both grids keeps its value exactly, a new node
// gets the linear interpolant between its old neighbours, v(x) = v_l + (x - x_l) (v_r - v_l) /
// (x_r - x_l). One pass through both grids: O(n + new_x.size()).
std::vector<real> interpolate_onto(const real* old_x, const real* values, index_t n,
                                   const std::vector<real>& new_x);

}  // namespace fhn
