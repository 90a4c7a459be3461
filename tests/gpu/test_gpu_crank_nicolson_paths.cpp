// The whole cable's Crank-Nicolson on the GPU with the partitioned solver: its fused path (J and F
// built inside the solver's passes, NewtonRows and NewtonSink of crank_nicolson_cuda.cu, each
// iteration a CUDA graph) against its generic path (NewtonPath::generic: the kernels of
// crank_nicolson_kernels.cuh around the same solver on stored arrays). The maths is the same: the
// rows are the same expressions (cn_newton_row; in a tile away from the cable's ends
// cn_interior_newton_row, the interior branch of cn_newton_row), the solve is the same partition
// method over the same tiles (ArrayRows in place of NewtonRows), u+ = u - du the same subtraction
// and the norms the same maxima; so the states and the Newton histories are equal bit for bit.
//
// A sweep member's Crank-Nicolson is not its single run's bit for bit, and is not tested so: the
// batch solves its members' systems with the batched partitioned solver (16-row chunks in warp
// tiles: another order of the eliminations than the single run's solver), the rest of a member's
// step being the single run's kernels; test_gpu_sweep.cpp compares the two to 1e-10.
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
using fhn::test::state_after;

}  // namespace

// The cable of cn_cable_yaml (a pulse, a Dirichlet end, a stimulus starting inside a step); the
// one-block PCR (101 nodes) and tiles (2049); a form with the closed-form W (cubic), one that
// confines u (barkley) and one whose W is Newton's root (aliev_panfilov); trapezoidal and
// leapfrog w.
TEST_CASE("GPU Crank-Nicolson: the fused path equals the generic kernels bit for bit") {
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
        REQUIRE(f.v.size() == g.v.size());
        CHECK(f.step == steps);
        CHECK(g.step == steps);
        CHECK(bit_differences(f.v.data(), g.v.data(), f.v.size()) == 0);
        CHECK(bit_differences(f.w.data(), g.w.data(), f.w.size()) == 0);
        const fhn::NewtonStats& fs = *fused->newton_stats();
        const fhn::NewtonStats& gs = *generic->newton_stats();
        CHECK(fs.steps() == steps);
        CHECK(gs.steps() == steps);
        CHECK(fs.mean_iterations() == gs.mean_iterations());
        CHECK(fs.max_iterations() == gs.max_iterations());
        CHECK(fs.convergence_order() == gs.convergence_order());  // from the ||du|| histories
        // The state moved (the pulse and the stimulus), so equal bits are not a trivial match.
        CHECK(*std::max_element(f.v.begin(), f.v.end()) > 0.5);
        CHECK(bit_differences(f.v.data(), p.v0.data(), f.v.size()) > f.v.size() / 2);
      }
}
