// The whole cable's Crank-Nicolson on the GPU with the partitioned solver: its fused path (J and F
// built inside the solver's passes, NewtonRows and NewtonSink of crank_nicolson_cuda.cu, each
// iteration a CUDA graph) against its generic path (NewtonPath::generic: the kernels of
// crank_nicolson_kernels.cuh around the same solver on stored arrays). The maths is the same: the
// rows are the same expressions (cn_newton_row; in a tile away from the cable's ends
// cn_interior_newton_row, the interior branch of cn_newton_row), the solve is the same partition
// method over the same tiles (ArrayRows in place of NewtonRows), u+ = u - du the same subtraction.
// The rounding is not: nvcc contracts F_i differently in the two. In the fused tiles away from
// the ends (no select between the end and interior Laplacians) D (L_h u)_i + f(u_i, w_i) becomes
// fma(u_{i-1} - 2 u_i + u_{i+1}, r, f) (PTX of reduce_kernel<NewtonRows<CubicKinetics>>); in
// assemble_kernel, after the select, r (..) is rounded and the cubic's last product fused with it,
// fma(u (1 - u), u - a, r (..)). So the two paths agree to round-off, not bit for bit; both are
// kept as they were (the fused rows are the build's before the reshape, ca4ba5e).
//
// A sweep member's Crank-Nicolson is not its single run's bit for bit either, and is not tested
// so: the batch solves its members' systems with the batched partitioned solver (16-row chunks in
// warp tiles: another order of the eliminations), the rest of a member's step being the single
// run's kernels; test_gpu_sweep.cpp compares the two to 1e-10.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "model/problem.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::cuda::NewtonPath;
using fhn::test::bit_differences;
using fhn::test::max_state_difference;
using fhn::test::state_after;

}  // namespace

// The cable of cn_cable_yaml (a pulse, a Dirichlet end, a stimulus starting inside a step); the
// one-block PCR (101 nodes) and tiles (2049); a form with the closed-form W (cubic), one that
// confines u (barkley) and one whose W is Newton's root (aliev_panfilov); trapezoidal and
// leapfrog w.
TEST_CASE("GPU Crank-Nicolson: the fused path and the generic kernels agree to round-off") {
  for (const int nodes : {101, 2049})
    for (const std::string form : {"cubic", "barkley", "aliev_panfilov"})
      for (const std::string w_update : {"trapezoidal", "leapfrog"}) {
        CAPTURE(nodes);
        CAPTURE(form);
        CAPTURE(w_update);
        const fhn::Config config =
            fhn::test::config_from(fhn::test::cn_cable_yaml(nodes, form, w_update, "partitioned"));
        const fhn::Problem p = fhn::make_problem(config);
        const fhn::CrankNicolsonSpec& spec = config.scheme.crank_nicolson;
        const auto fused = fhn::cuda::make_crank_nicolson_cuda(p, spec, nullptr, true,
                                                               NewtonPath::fused);
        const auto generic = fhn::cuda::make_crank_nicolson_cuda(p, spec, nullptr, true,
                                                                 NewtonPath::generic);
        CHECK(fused->name().find("with J and F built in the solver") != std::string::npos);
        CHECK(generic->name().find("with J and F built in the solver") == std::string::npos);
        const index_t steps = 300;
        const fhn::Snapshot f = state_after(*fused, steps), g = state_after(*generic, steps);
        CHECK(f.step == steps);
        CHECK(g.step == steps);
        CHECK(max_state_difference(f, g) < 1e-10);  // as the GPU and the CPU (test_gpu_schemes.cpp)
        const fhn::NewtonStats& fs = *fused->newton_stats();
        const fhn::NewtonStats& gs = *generic->newton_stats();
        CHECK(fs.steps() == steps);
        CHECK(gs.steps() == steps);
        CHECK(fs.mean_iterations() == doctest::Approx(gs.mean_iterations()).epsilon(0.02));
        // The state moved (the pulse and the stimulus): the agreement is not that of two idle runs
        // (on 2049 nodes 300 steps reach about half the cable: a quarter is asked).
        CHECK(*std::max_element(f.v.begin(), f.v.end()) > 0.5);
        CHECK(bit_differences(f.v.data(), p.v0.data(), f.v.size()) > f.v.size() / 4);
      }
}
