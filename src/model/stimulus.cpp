#include "model/stimulus.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fhn {

namespace {

// Overlaps and gaps within this many grid spacings count as none (an edge on a node, or on a
// cell's face, computed in floating point).
constexpr real kSlack = 1e-9;

// The node indices [first, last] of the grid x_i = i dx, i = 0..nodes-1, with lo <= x_i <= hi
// (a node on an edge counts as inside): coverage: nodes.
void nodes_within(real lo, real hi, real dx, index_t nodes, index_t& first, index_t& last) {
  const real slack = kSlack * dx;
  first = std::max<index_t>(0, static_cast<index_t>(std::ceil((lo - slack) / dx)));
  last = std::min<index_t>(nodes - 1, static_cast<index_t>(std::floor((hi + slack) / dx)));
}

// Node i's fraction of [u, v] along an axis of `nodes` nodes, in units of dx (node i at i, its
// cell [i - 1/2, i + 1/2] clipped to [0, nodes - 1]): |cell and [u, v]| / |cell| (stimulus_nodes),
// an overlap within kSlack of 0 or of the cell taken as 0 or the whole cell.
real cell_fraction(real u, real v, index_t i, index_t nodes) {
  const real at = static_cast<real>(i);
  const real lo = std::max(at - 0.5, 0.0), hi = std::min(at + 0.5, static_cast<real>(nodes - 1));
  const real overlap = std::min(v, hi) - std::max(u, lo);
  if (overlap <= kSlack) return 0.0;
  if (overlap >= hi - lo - kSlack) return 1.0;
  return overlap / (hi - lo);
}

// The nodes whose cells overlap [lo, hi] (coverage: overlap) along an axis, with the fractions of
// the first and the last. In units of dx (u = lo/dx, v = hi/dx): node i's cell ends past u when
// i + 1/2 > u, so first = floor(u - 1/2) + 1, and begins before v when i - 1/2 < v, so
// last = ceil(v + 1/2) - 1 (both with kSlack, so that a face within it of an edge leaves that
// cell out); the cells between them lie inside [u, v].
void cells_within(real lo, real hi, real dx, index_t nodes, index_t& first, index_t& last,
                  real& first_fraction, real& last_fraction) {
  const real u = lo / dx, v = hi / dx;
  first = std::max<index_t>(0, static_cast<index_t>(std::floor(u - 0.5 + kSlack)) + 1);
  last = std::min<index_t>(nodes - 1, static_cast<index_t>(std::ceil(v + 0.5 - kSlack)) - 1);
  if (last < first) return;
  first_fraction = cell_fraction(u, v, first, nodes);
  last_fraction = cell_fraction(u, v, last, nodes);
  if (first_fraction == 0.0) last = first - 1;  // a region of no width: no node takes any
}

}  // namespace

NodeStimulus stimulus_nodes(const Stimulus& s, const Domain& domain) {
  NodeStimulus ns;
  const real lo[kMaxAxes] = {s.x_min, s.y_min, s.z_min}, hi[kMaxAxes] = {s.x_max, s.y_max, s.z_max};
  index_t* first[kMaxAxes] = {&ns.first, &ns.first_y, &ns.first_z};
  index_t* last[kMaxAxes] = {&ns.last, &ns.last_y, &ns.last_z};
  for (int a = 0; a < domain.dims; ++a) {
    if (s.coverage == Coverage::nodes)
      nodes_within(lo[a], hi[a], domain.dx, domain.nodes[a], *first[a], *last[a]);
    else
      cells_within(lo[a], hi[a], domain.dx, domain.nodes[a], *first[a], *last[a],
                   ns.first_fraction[a], ns.last_fraction[a]);
  }
  ns.spec = s;
  return ns;
}

index_t first_sample_on(const Stimulus& s, real h, real span, index_t samples, real dt) {
  constexpr index_t kPulsesLooked = index_t{1} << 20;
  const real tolerance = stimulus_tolerance(dt);
  const real last = static_cast<real>(samples - 1) * h;
  for (index_t pulse = 0; pulse < s.count; ++pulse) {
    if (pulse == kPulsesLooked) return 0;
    // On for t in [begin - tolerance, begin + duration - tolerance): the first sample there (or
    // whose window [t, t + span] meets it).
    const real begin = s.start + static_cast<real>(pulse) * s.period;
    if (begin - tolerance > last + span) return -1;  // this pulse and the later ones: too late
    const real j = std::max(0.0, std::ceil((begin - tolerance) / h));
    for (real k = std::max(0.0, j - 1.0); k <= j + 1.0 && k * h <= last; ++k)
      if (stimulus_mean(s, k * h, span, tolerance) > 0.0) return static_cast<index_t>(k);
    if (s.period <= 0.0) return -1;
  }
  return -1;
}

StimulusSchedule::StimulusSchedule(const std::vector<Stimulus>& stimuli, const Domain& domain,
                                   real dt)
    : last_axis_(domain.dims - 1), tolerance_(stimulus_tolerance(dt)), dt_(dt) {
  for (int a = 0; a < kMaxAxes; ++a) n_[a] = domain.nodes[a];
  for (const Stimulus& s : stimuli) stimuli_.push_back(stimulus_nodes(s, domain));
}

void StimulusSchedule::currents(real t, real span, real* current, index_t plane0,
                                index_t planes) const {
  // The planes are nodes along x on a cable, rows along y on a sheet, planes along z on a box
  // (the last axis); `current` starts at the first node of plane plane0.
  const index_t plane_end = planes < 0 ? std::numeric_limits<index_t>::max() : plane0 + planes;
  index_t plane_size = 1;
  for (int a = 0; a < last_axis_; ++a) plane_size *= n_[a];
  const index_t origin = plane_size * plane0;
  auto each_node = [&](const NodeStimulus& s, auto&& f) {
    index_t lo[kMaxAxes] = {s.first, s.first_y, s.first_z};
    index_t hi[kMaxAxes] = {s.last, s.last_y, s.last_z};
    lo[last_axis_] = std::max(lo[last_axis_], plane0);
    hi[last_axis_] = std::min(hi[last_axis_], plane_end - 1);
    for (index_t k = lo[2]; k <= hi[2]; ++k)
      for (index_t j = lo[1]; j <= hi[1]; ++j)
        for (index_t i = lo[0]; i <= hi[0]; ++i)
          f(current[i + n_[0] * (j + n_[1] * k) - origin], i, j, k);
  };
  for (const NodeStimulus& s : stimuli_)
    each_node(s, [](real& c, index_t, index_t, index_t) { c = 0.0; });
  for (const NodeStimulus& s : stimuli_) {
    const real weight = stimulus_mean(s.spec, t, span, tolerance_);
    each_node(s, [&](real& c, index_t i, index_t j, index_t k) {
      c += weight * s.spec.amplitude * s.fraction(i, j, k);
    });
  }
}

}  // namespace fhn
