#include "sweep/planar.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/first_error.hpp"
#include "kinetics/kinetics.hpp"
#include "model/problem.hpp"
#include "run/run_loop.hpp"
#include "run/time_loop.hpp"
#include "schemes/member_batch.hpp"
#include "sweep/measurements.hpp"
#include "sweep/plan.hpp"

namespace fhn::sweep_detail {
namespace {

// W, the kicked region's width, and the probes x_a, x_b of a cable of length L (planar.hpp).
real kicked_width(const Config& sheet) {
  return std::max(5.0 * sheet.domain.dx, sheet.domain.length[0] / 20.0);
}
std::vector<real> planar_probes(const Config& cable) {
  const real w = kicked_width(cable), length = cable.domain.length[0];
  return {w + 0.25 * (length - w), w + 0.75 * (length - w)};
}

}  // namespace

Config planar_cable(const Config& sheet) {
  Config c = sheet;
  c.name = sheet.name + "_planar";
  c.locations.clear();
  c.notes.clear();
  c.warnings.clear();
  c.domain.dims = 1;
  c.domain.length = {sheet.domain.length[0], 0.0, 0.0};
  c.domain.nodes = {sheet.domain.nodes[0], 1, 1};
  NodeState rest{}, levels{};
  with_kinetics(sheet.model.kinetics, [&](const auto& k) {
    rest = k.rest();
    levels = k.levels();
  });
  Profile v;
  v.type = ProfileType::step;
  v.axis = 0;
  v.position = kicked_width(sheet);
  v.left = levels.v + 0.5 * (levels.v - rest.v);
  v.right = rest.v;
  c.initial.v = v;
  c.initial.w = Profile{};
  c.initial.w.type = ProfileType::rest;
  c.stimulus.clear();
  c.tissue.clear();
  c.fields.clear();
  c.anisotropy = AnisotropySpec{};
  OutputSpec& out = c.output;
  out.vtk = false;
  out.spacetime = false;
  out.probes.clear();
  out.tips.enabled = false;
  out.activation.enabled = false;
  out.filaments.enabled = false;
  out.newton_log = false;
  out.checkpoint_every = 0.0;
  out.checkpoint_every_steps = 0;
  return c;
}

std::vector<std::optional<PlanarPulse>> run_planar_pulses(const std::vector<Config>& sheets,
                                                          int threads,
                                                          const std::function<bool()>& interrupted) {
  std::vector<std::optional<PlanarPulse>> out;
  if (sheets.empty()) return out;
  std::vector<Config> cables(sheets.size());
  std::vector<Problem> problems(sheets.size());
  {
    FirstError failed;
#pragma omp parallel for schedule(dynamic)
    for (std::size_t m = 0; m < sheets.size(); ++m)
      failed.guard(static_cast<index_t>(m), [&] {
        cables[m] = planar_cable(sheets[m]);
        problems[m] = make_problem(cables[m]);
      });
    failed.rethrow();
  }
  const Config& c0 = cables.front();
  const std::vector<real> probes = planar_probes(c0);
  const std::vector<ProbeNodes> where = probe_nodes(probes, c0);
  std::vector<MemberMeasurements> measured;
  for (const Config& c : cables)
    with_kinetics(c.model.kinetics, [&](const auto& k) {
      measured.emplace_back(probes, k.levels().v, 1);  // one pulse started
    });
  std::unique_ptr<MemberBatch> batch = make_member_batch(problems, c0.scheme, threads);
  problems.clear();
  std::vector<bool> failed(sheets.size(), false);
  std::vector<real> sampled;
  bool stopped = false;
  using E = LoopEvent;
  const std::vector<LoopEvent> events{
      {RunLoopSettings{}.check_every, E::kWholePasses | E::kAtEnd,
       [&](index_t) { batch->check_finite(); }},
      {0, E::kAtEveryStop,
       [&](index_t) {
         for (const MemberFailure& f : batch->take_failures())
           failed[static_cast<std::size_t>(f.member)] = true;
       }},
      {c0.output.every_steps, E::kAtStart | E::kAtEnd,
       [&](index_t step) {
         const real t = c0.time.grid().t(step);
         sample_probes(*batch, where, sampled, [&](index_t k, const real* v) {
           measured[static_cast<std::size_t>(k)].sample(t, v);
         });
       }},
      {0, E::kAtEveryStop,
       [&](index_t step) {
         if (step < c0.time.steps && interrupted()) {
           stopped = true;
           throw InterruptedError("interrupted");
         }
       }}};
  LoopResult result;
  try {
    run_time_loop(*batch, c0.time.steps, events, result);
  } catch (const InterruptedError&) {
    if (stopped) return out;
    throw;
  }
  for (std::size_t m = 0; m < sheets.size(); ++m) {
    if (failed[m]) {
      out.emplace_back();
      continue;
    }
    const MemberMeasurements& p = measured[m];
    out.push_back(PlanarPulse{p.propagated(), p.speed()});
  }
  return out;
}

std::string planar_class(const std::string& kind, const std::optional<PlanarPulse>& planar) {
  if (!planar || (kind != "retract" && kind != "no_wave")) return kind;
  return planar->propagated ? "retract" : "no_propagation";
}

}  // namespace fhn::sweep_detail
