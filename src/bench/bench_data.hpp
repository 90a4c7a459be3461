#pragma once
// Inputs and checks shared by the CPU and GPU benchmarks: random diagonally dominant systems,
// the Thomas oracle, smooth-plus-noise FHN states, and the relative error of a result.
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "model/problem.hpp"
#include "solvers/batched_tridiagonal.hpp"

namespace fhn::bench {

// A tridiagonal system on the host, in the solvers' convention (lower[0] = upper[n-1] = 0).
struct HostSystem {
  std::vector<real> lower, diag, upper, rhs;
  index_t size() const { return static_cast<index_t>(diag.size()); }
};

// Off-diagonals in [-1, 1], |diag| = |lower| + |upper| + [1, 2] with a random sign, rhs in
// [-1, 1]: strictly diagonally dominant, fresh for every seed.
HostSystem random_system(index_t n, std::uint64_t seed);

// x solving `s` by Thomas (the oracle).
std::vector<real> thomas_solution(const HostSystem& s);

// A batch of systems in a dense layout (n count entries): the systems are random_system(n count)
// cut apart in that layout (lower[0] and upper[n-1] of each system zeroed), and a shared matrix
// random_system(n) for the constant-coefficient solves.
struct HostBatch {
  solvers::BatchLayout layout;
  HostSystem matrix;   // shared matrix (its rhs unused)
  HostSystem systems;  // per-system coefficients and the right sides, in the layout
};
HostBatch random_batch(const solvers::BatchLayout& layout, std::uint64_t seed);

// x of every system of the batch by Thomas (the oracle), in the batch's layout; `constant`:
// with the shared matrix.
std::vector<real> batch_thomas_solution(const HostBatch& b, bool constant);

// max_i |x_i - truth_i| / max_i |truth_i| (infinity when a value is NaN or the sizes differ).
double max_relative_error(const std::vector<real>& x, const std::vector<real>& truth);

// v = 0.5 + 0.4 sin(i / 40) + 0.05 noise, w = 0.1 + 0.05 noise: smooth waves with noise, never
// zero (zeros can hide unwritten outputs and time differently).
struct State {
  std::vector<real> v, w;
};
State pulse_state(index_t n, std::uint64_t seed);
// A planar front along x across the grid of `domain`: v = 1/2 + 1/2 tanh((L_x / 2 - x) / 2),
// w = 0, excited behind x = L_x / 2. Where a wave's front makes a column of nodes cross v = 1/2
// in a step (pulse_state's noise makes 8% of them cross at every step).
State front_state(const Domain& domain);

// The problem both halves of the benchmark time: n nodes, dx = 0.5, the given kinetics form with
// its default parameters, dt = 0.1 (0.4 dx^2 / D, inside the cubic form's explicit limit; for
// another form at most 0.8 of its limit, so that repeated steps stay finite), no-flux ends, no
// stimulus, pulse_state(n, seed).
Problem bench_problem(index_t n, std::uint64_t seed, const Kinetics& kinetics);

// The side of a square sheet of n nodes (n an even power of two, at least 2^10), else 0.
index_t sheet_side(index_t n);

// A side x side sheet, dx = 0.5, the given form, dt = 0.05 (0.8 of the explicit limit
// dx^2 / (4 D); for another form at most 0.8 of its limit), no-flux sides, the given stimuli,
// the state pulse_state(side^2, seed) in node order.
Problem bench_sheet_problem(index_t side, std::uint64_t seed, const Kinetics& kinetics,
                            const std::vector<Stimulus>& stimuli = {});

// The side of a cube of n nodes (n a power of 8, at least 2^12), else 0.
index_t box_side(index_t n);

// A side^3 box, dx = 0.5, the given form, dt at most 0.8 of its explicit limit (0.03 for the
// cubic form), no-flux faces, no stimulus, the state pulse_state(side^3, seed) in node order.
Problem bench_box_problem(index_t side, std::uint64_t seed, const Kinetics& kinetics);

// One forward Euler step from the problem's initial state, node by node with the point layer's
// explicit_update: the reference of the explicit-step checks.
State explicit_reference_step(const Problem& problem);

}  // namespace fhn::bench
