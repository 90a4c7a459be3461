#include "study/spiral_tips.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

#include "core/error.hpp"
#include "core/format.hpp"
#include "grid/phase.hpp"
#include "io/csv_resume.hpp"
#include "io/json.hpp"
#include "grid/snapshot.hpp"
#include "study/iso_crossings.hpp"
#include "study/line_fit.hpp"

namespace fhn {
namespace {

// Two tips closer than this (in cell widths) are one tip found by two cells.
constexpr real kSameTip = 1e-6;

// A tip in grid units: g = (i + s, j + r).
struct GridTip {
  real gx;
  real gy;
};

// Drops the later (in the order found) of any two tips closer than kSameTip in both grid
// coordinates: a tip on a shared edge or corner is found by two or four cells.
std::vector<GridTip> without_duplicates(const std::vector<GridTip>& tips) {
  std::vector<std::size_t> by_x(tips.size());
  std::iota(by_x.begin(), by_x.end(), std::size_t{0});
  std::stable_sort(by_x.begin(), by_x.end(),
                   [&](std::size_t a, std::size_t b) { return tips[a].gx < tips[b].gx; });
  std::vector<bool> duplicate(tips.size(), false);
  for (std::size_t p = 1; p < by_x.size(); ++p) {
    const GridTip& tip = tips[by_x[p]];
    for (std::size_t q = p; q-- > 0 && tip.gx - tips[by_x[q]].gx <= kSameTip;) {
      if (std::abs(tip.gy - tips[by_x[q]].gy) <= kSameTip)
        duplicate[std::max(by_x[p], by_x[q])] = true;
    }
  }
  std::vector<GridTip> kept;
  for (std::size_t k = 0; k < tips.size(); ++k)
    if (!duplicate[k]) kept.push_back(tips[k]);
  return kept;
}

real distance_squared(const TipPoint& a, const TipPoint& b) {
  return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y);
}

}  // namespace

std::vector<TipPoint> tips_in_cells(const Domain& domain, const std::vector<IsoCell>& cells,
                                    real v_iso, real w_iso) {
  FHN_VERIFY(domain.dims == 2, InternalError, "tips_in_cells: tips are found on sheets only");
  std::vector<GridTip> found;
  for (const IsoCell& cell : cells) {
    // V = v - v_iso, W = w - w_iso at the corners (s along x, r along y).
    const real v00 = cell.v[0] - v_iso, v10 = cell.v[1] - v_iso;
    const real v01 = cell.v[2] - v_iso, v11 = cell.v[3] - v_iso;
    const real w00 = cell.w[0] - w_iso, w10 = cell.w[1] - w_iso;
    const real w01 = cell.w[2] - w_iso, w11 = cell.w[3] - w_iso;
    cell_crossings(v00, v10, v01, v11, w00, w10, w01, w11, [&](real s, real r) {
      found.push_back({static_cast<real>(cell.i) + s, static_cast<real>(cell.j) + r});
    });
  }
  // x = L_x (i + s) / (N_x - 1), y = L_y (j + r) / (N_y - 1), as Domain::coordinate.
  const real to_x = domain.length[0] / static_cast<real>(domain.nodes[0] - 1);
  const real to_y = domain.length[1] / static_cast<real>(domain.nodes[1] - 1);
  std::vector<TipPoint> tips;
  for (const GridTip& g : without_duplicates(found)) tips.push_back({g.gx * to_x, g.gy * to_y});
  return tips;
}

std::vector<TipPoint> find_tips(const Domain& domain, const real* v, const real* w,
                                const std::uint8_t* outside, real v_iso, real w_iso) {
  FHN_VERIFY(domain.dims == 2, InternalError, "find_tips: tips are found on sheets only");
  // A zero of both V and W needs a sign change of each over the cell's corners; a cell with a
  // corner outside the tissue has no tip (its iso-lines meet the edge).
  std::vector<IsoCell> cells;
  straddling_cells(domain, v, w, outside, v_iso, w_iso, cells);
  return tips_in_cells(domain, cells, v_iso, w_iso);
}

std::vector<PhaseSingularity> phase_singularities(const std::vector<IsoCell>& cells, real v_iso,
                                                 real w_iso) {
  std::vector<PhaseSingularity> out;
  // IsoCell's corners 0 (i, j), 1 (i + 1, j), 2 (i, j + 1), 3 (i + 1, j + 1): counter-clockwise
  // 0, 1, 3, 2.
  constexpr int kRound[5] = {0, 1, 3, 2, 0};
  for (const IsoCell& c : cells) {
    real winding = 0.0;
    for (int e = 0; e < 4; ++e) {
      const int a = kRound[e], b = kRound[e + 1];
      const real from = phase_angle(c.v[a], c.w[a], v_iso, w_iso);
      const real to = phase_angle(c.v[b], c.w[b], v_iso, w_iso);
      winding += std::remainder(to - from, kTwoPi);
    }
    const auto charge = static_cast<int>(std::lround(winding / kTwoPi));
    if (charge != 0) out.push_back({c.i, c.j, charge});
  }
  return out;
}

namespace {

// The rotation of the path's samples k0..n-1 about the centre c(k): the unwrapped angle's full
// turns M and, with M >= 2, T = (tau - t_k0) / M (spiral_tips.hpp).
template <class Centre>
Rotation turns_about(const std::vector<real>& t, const std::vector<real>& x,
                     const std::vector<real>& y, std::size_t k0, Centre centre) {
  Rotation rotation;
  const std::size_t n = t.size();
  rotation.t_from = t[k0];
  rotation.t_to = t[n - 1];
  auto angle = [&](std::size_t k) {
    const std::pair<real, real> c = centre(k);
    return std::atan2(y[k] - c.second, x[k] - c.first);
  };
  // u_k = u_{k-1} + remainder(theta_k - theta_{k-1}, 2 pi), u_k0 = theta_k0
  std::vector<real> u(n - k0);
  real previous = angle(k0);
  u[0] = previous;
  for (std::size_t k = k0 + 1; k < n; ++k) {
    const real theta = angle(k);
    u[k - k0] = u[k - k0 - 1] + std::remainder(theta - previous, kTwoPi);
    previous = theta;
  }
  // M = floor(|u_last - u_k0| / 2 pi)
  const real turned = u.back() - u.front();
  rotation.rotations = static_cast<index_t>(std::floor(std::abs(turned) / kTwoPi));
  if (rotation.rotations < 2) return rotation;
  // tau: first time sigma u >= sigma (u_k0 + sigma 2 pi M), interpolated; T = (tau - t_k0) / M.
  const real sigma = turned > 0.0 ? 1.0 : -1.0;
  const real level = u.front() + sigma * kTwoPi * static_cast<real>(rotation.rotations);
  for (std::size_t k = 1; k < u.size(); ++k) {
    if (sigma * u[k] < sigma * level) continue;
    const real t0 = t[k0 + k - 1], t1 = t[k0 + k];
    const real tau = t0 + (level - u[k - 1]) / (u[k] - u[k - 1]) * (t1 - t0);
    rotation.period = (tau - t[k0]) / static_cast<real>(rotation.rotations);
    break;
  }
  return rotation;
}

}  // namespace

Rotation measure_rotation(const std::vector<real>& t, const std::vector<real>& x,
                          const std::vector<real>& y) {
  const std::size_t n = t.size();
  if (n < 2) return {};
  // Window: t_k >= (t_0 + t_last) / 2.
  const real t_middle = t[0] + 0.5 * (t[n - 1] - t[0]);
  const std::size_t k0 = static_cast<std::size_t>(
      std::lower_bound(t.begin(), t.end(), t_middle) - t.begin());
  const std::size_t m = n - k0;
  if (m < 3) return turns_about(t, x, y, k0, [&](std::size_t) { return std::pair{x[k0], y[k0]}; });
  // 1. About the Hann-weighted least-squares line through the window's positions.
  auto line = [&](const std::vector<real>& p) {
    return fit_weighted_line(
        m, [&](std::size_t k) { return t[k0 + k]; }, [&](std::size_t k) { return p[k0 + k]; },
        [&](std::size_t k) {
          const real s = std::sin(0.5 * kTwoPi * static_cast<real>(k) / static_cast<real>(m - 1));
          return s * s;
        });
  };
  const LineFit lx = line(x), ly = line(y);
  const Rotation first = turns_about(t, x, y, k0, [&](std::size_t k) {
    return std::pair{lx.intercept + lx.slope * t[k], ly.intercept + ly.slope * t[k]};
  });
  if (!first.period) return first;
  // 2. About the mean of the path over one period T1 (step 1's) around each sample: the centre
  // the tip circles, drifting or not. Near the window's ends the period [a, a + T1] is kept
  // inside it, and its mean, the centre at a + T1/2, is carried to t_k at the drift velocity b:
  //   c(t_k) = mean(a) + b (t_k - a - T1/2),   mean(a) = (I(a + T1) - I(a)) / T1,
  // I(s) = int_{t_k0}^{s} z dt over the path linear between samples (the trapezoid rule's
  // running sums), and b the motion of the mean from the window's first period to its last,
  //   b = (mean(t_last - T1) - mean(t_k0)) / (t_last - t_k0 - T1)   (0 for a path that repeats).
  const real period = *first.period;
  std::vector<real> ix(m, 0.0), iy(m, 0.0);
  for (std::size_t k = 1; k < m; ++k) {
    const real h = 0.5 * (t[k0 + k] - t[k0 + k - 1]);
    ix[k] = ix[k - 1] + h * (x[k0 + k - 1] + x[k0 + k]);
    iy[k] = iy[k - 1] + h * (y[k0 + k - 1] + y[k0 + k]);
  }
  auto integral = [&](const std::vector<real>& cumulative, const std::vector<real>& p, real s) {
    const std::size_t j = std::min<std::size_t>(
        m - 1, static_cast<std::size_t>(std::upper_bound(t.begin() + k0, t.end(), s) - t.begin() - k0));
    const std::size_t i = j - 1;  // t_i <= s < t_j
    const real ti = t[k0 + i], f = (s - ti) / (t[k0 + j] - ti);
    const real at_s = p[k0 + i] + f * (p[k0 + j] - p[k0 + i]);
    return cumulative[i] + 0.5 * (s - ti) * (p[k0 + i] + at_s);
  };
  auto mean = [&](real a) {
    return std::pair{(integral(ix, x, a + period) - integral(ix, x, a)) / period,
                     (integral(iy, y, a + period) - integral(iy, y, a)) / period};
  };
  const std::pair<real, real> first_mean = mean(t[k0]), last_mean = mean(t[n - 1] - period);
  const real span = t[n - 1] - t[k0] - period;
  const real bx = (last_mean.first - first_mean.first) / span,
             by = (last_mean.second - first_mean.second) / span;
  return turns_about(t, x, y, k0, [&](std::size_t k) {
    const real a = std::clamp(t[k] - 0.5 * period, t[k0], t[n - 1] - period);
    const real shift = t[k] - a - 0.5 * period;
    const std::pair<real, real> c = mean(a);
    return std::pair{c.first + bx * shift, c.second + by * shift};
  });
}

std::vector<std::uint8_t> cut_off_nodes(const ParameterFields& fields) {
  const std::vector<real>& d = fields.diffusion.values;
  if (std::find(d.begin(), d.end(), 0.0) == d.end()) return {};
  std::vector<std::uint8_t> cut(d.size());
  for (std::size_t node = 0; node < d.size(); ++node)
    cut[node] = d[node] == 0.0 || (!fields.node_type.empty() && fields.node_type[node] != 0);
  return cut;
}

TipTracker::TipTracker(const std::filesystem::path& file, real v_iso, real w_iso, bool append,
                       std::vector<std::uint8_t> cut_off, TipPathLimits limits,
                       std::vector<Point> watch)
    : file_(file),
      v_iso_(v_iso),
      w_iso_(w_iso),
      cut_off_(std::move(cut_off)),
      out_(file.empty() ? decltype(out_)(nullptr, std::fclose) : open_csv(file, "t,tip,x,y\n", append)),
      limits_(limits),
      watch_(std::move(watch)),
      watch_v_(watch_.size(), std::numeric_limits<real>::quiet_NaN()),
      crossings_(watch_.size()),
      obstacles_(!cut_off_.empty()) {}

void TipTracker::write(const FrameView& f) {
  FHN_VERIFY(f.sheet(), InternalError, "TipTracker: tips are found on sheets only");
  std::vector<real> watch_v(watch_.size());
  for (std::size_t i = 0; i < watch_.size(); ++i) watch_v[i] = f.at(f.v, watch_[i]);
  std::vector<IsoCell> cells;
  straddling_cells(*f.domain, f.v, f.w, skip(f.outside), v_iso_, w_iso_, cells);
  write_sample(f.t, *f.domain, cells, excited_nodes(f.v, f.n, f.outside, v_iso_), watch_v,
               f.outside != nullptr);
}

void TipTracker::write_sample(real t, const Domain& domain, const std::vector<IsoCell>& cells,
                              index_t excited, const std::vector<real>& watch_v, bool obstacles) {
  // The watched points' upward crossings of v_iso, linear between samples (a repeated sample is
  // already in them):  t* = t0 + (v_iso - v0) / (v1 - v0) (t1 - t0)  where v0 < v_iso <= v1.
  if (frames_ == 0 || t > last_t_) {
    obstacles_ = obstacles_ || obstacles;
    for (std::size_t i = 0; i < watch_.size(); ++i) {
      const real v = watch_v[i], before = watch_v_[i];
      if (before < v_iso_ && v >= v_iso_)
        crossings_[i].push_back(last_t_ + (v_iso_ - before) / (v - before) * (t - last_t_));
      watch_v_[i] = v;
    }
  }
  // The tips and the phase singularities from the same cells (find_tips' two halves).
  const std::vector<PhaseSingularity> singular = phase_singularities(cells, v_iso_, w_iso_);
  singularities_at_end_ = static_cast<index_t>(singular.size());
  charge_at_end_ = 0;
  for (const PhaseSingularity& s : singular) charge_at_end_ += s.charge;
  write_tips(t, domain, tips_in_cells(domain, cells, v_iso_, w_iso_), excited);
}

void TipTracker::write_tips(real t, const Domain& domain, std::vector<TipPoint> tips,
                            index_t excited_nodes) {
  // 1. Order: tip 0 nearest to the previous principal tip, the rest by distance to tip 0.
  if (!tips.empty()) {
    if (!path_t_.empty()) {
      const TipPoint previous{path_x_.back(), path_y_.back()};
      const auto nearest =
          std::min_element(tips.begin(), tips.end(), [&](const TipPoint& a, const TipPoint& b) {
            return distance_squared(a, previous) < distance_squared(b, previous);
          });
      std::rotate(tips.begin(), nearest, nearest + 1);
    }
    const TipPoint first = tips.front();
    std::stable_sort(tips.begin() + 1, tips.end(), [&](const TipPoint& a, const TipPoint& b) {
      return distance_squared(a, first) < distance_squared(b, first);
    });
  }

  // 2. tips.csv: one row per tip, the frame's rows flushed together.
  std::string rows;
  for (std::size_t k = 0; k < tips.size(); ++k)
    rows += format_exact(t) + "," + std::to_string(k) + "," + format_exact(tips[k].x) + "," +
            format_exact(tips[k].y) + "\n";
  if (out_ && !rows.empty() &&
      (std::fputs(rows.c_str(), out_.get()) < 0 || std::fflush(out_.get()) != 0))
    throw IoError(file_.string() + ": write failed (" + std::strerror(errno) + ")");

  // 3. Whether the frame is excited anywhere (a repeated frame is the same frame again), the
  // sheet's extent; the principal tip's path and the counts (a repeated frame is already in them).
  analysis_.reset();
  excited_ = excited_nodes > 0;
  x_max_ = domain.length[0];
  y_max_ = domain.length[1];
  dx_ = domain.dx;
  if (frames_ > 0 && t <= last_t_) return;
  const bool path_ended = tips_at_end_ == 0;  // the previous frame had no tip (or there was none)
  // Whether the excitation spread beyond the first frame's (waves that propagate).
  if (frames_ == 0) first_excited_ = excited_nodes;
  else spread_ = spread_ || excited_nodes > first_excited_;
  ++frames_;
  last_t_ = t;
  tips_at_end_ = static_cast<index_t>(tips.size());
  if (tips.empty()) return;
  ++frames_with_tips_;
  if (path_ended) {
    path_t_.clear();
    path_x_.clear();
    path_y_.clear();
  }
  path_t_.push_back(t);
  path_x_.push_back(tips.front().x);
  path_y_.push_back(tips.front().y);
}

void TipTracker::save(SchemeState& state) {
  state.add("tips.state", {static_cast<real>(frames_), last_t_, static_cast<real>(tips_at_end_),
                           static_cast<real>(frames_with_tips_),
                           static_cast<real>(path_t_.size())});
  state.add("tips.t", path_t_);
  state.add("tips.x", path_x_);
  state.add("tips.y", path_y_);
  state.add("tips.spread", {static_cast<real>(first_excited_), spread_ ? 1.0 : 0.0});
  if (watch_.empty()) return;
  std::vector<real> watch{obstacles_ ? 1.0 : 0.0}, crossings;
  for (std::size_t i = 0; i < watch_.size(); ++i) {
    watch.push_back(watch_v_[i]);
    watch.push_back(static_cast<real>(crossings_[i].size()));
    crossings.insert(crossings.end(), crossings_[i].begin(), crossings_[i].end());
  }
  state.add("tips.watch", watch);
  state.add("tips.crossings", crossings);
}

std::optional<TipTracker::Saved> TipTracker::check_state(const SchemeState& state) {
  if (!state.has("tips.state")) return std::nullopt;
  // Frames come at most once a step (and once more at the end); a frame has at most one tip
  // per grid cell, and a cell count fits in 2^40.
  const std::vector<real>& counts = state.get_finite("tips.state", 5);
  Saved saved;
  saved.frames = checkpoint_count(counts[0], state.step + 1, "tips.state frames");
  saved.last_t = counts[1];
  saved.tips_at_end = checkpoint_count(counts[2], index_t{1} << 40, "tips.state tips at end");
  saved.frames_with_tips =
      checkpoint_count(counts[3], saved.frames, "tips.state frames with tips");
  const auto length = static_cast<std::size_t>(
      checkpoint_count(counts[4], saved.frames_with_tips, "tips.state path length"));
  saved.t = state.get_finite("tips.t", length);
  saved.x = state.get_finite("tips.x", length);
  saved.y = state.get_finite("tips.y", length);
  if (!std::is_sorted(saved.t.begin(), saved.t.end()) ||
      (length > 0 && saved.t.back() > saved.last_t))
    throw IoError("checkpoint: the tip path's times do not increase up to the last frame's");
  // Checkpoints written before these existed lack them: the excitation taken not to spread.
  if (state.has("tips.spread")) {
    const std::vector<real>& spread = state.get_finite("tips.spread", 2);
    saved.first_excited = checkpoint_count(spread[0], index_t{1} << 40, "tips.spread first frame");
    saved.spread = spread[1] != 0.0;
  }
  // The watched points' state (checkpoints of runs without them, or from before, lack it).
  if (const std::vector<real>* watch = state.find("tips.watch")) {
    if (watch->size() % 2 != 1)
      throw IoError("checkpoint: tips.watch holds " + std::to_string(watch->size()) +
                    " values, not 1 + 2 per watched point");
    const std::vector<real>& w = state.get_finite("tips.watch", watch->size(), true);
    saved.obstacles = w[0] != 0.0;
    index_t total = 0;
    std::vector<index_t> per_point;
    for (std::size_t i = 1; i < w.size(); i += 2) {
      saved.watch_v.push_back(w[i]);
      per_point.push_back(checkpoint_count(w[i + 1], saved.frames, "tips.watch crossings"));
      total += per_point.back();
    }
    const std::vector<real>& all =
        state.get_finite("tips.crossings", static_cast<std::size_t>(total));
    auto at = all.begin();
    for (const index_t n : per_point) {
      saved.crossings.emplace_back(at, at + n);
      at += n;
    }
  }
  return saved;
}

std::string TipTracker::restore(const SchemeState& state) {
  analysis_.reset();
  std::optional<Saved> saved = check_state(state);
  if (!saved)
    return "tips.csv: the checkpoint holds no tip path (output.tips was off before the "
           "restart); the rows, counts and rotation period cover only the frames from the "
           "restart on";
  frames_ = saved->frames;
  last_t_ = saved->last_t;
  tips_at_end_ = saved->tips_at_end;
  frames_with_tips_ = saved->frames_with_tips;
  path_t_ = std::move(saved->t);
  path_x_ = std::move(saved->x);
  path_y_ = std::move(saved->y);
  first_excited_ = saved->first_excited;
  spread_ = saved->spread;
  if (watch_.empty()) return "";
  if (saved->watch_v.size() != watch_.size())
    return "tips.csv: the checkpoint holds no crossings of these " +
           std::to_string(watch_.size()) +
           " probes (other probes, or a checkpoint from before): a wave circling an obstacle is "
           "watched from the restart on";
  watch_v_ = std::move(saved->watch_v);
  crossings_ = std::move(saved->crossings);
  obstacles_ = obstacles_ || saved->obstacles;
  return "";
}

const TipPathAnalysis& TipTracker::path_analysis() const {
  if (analysis_) return *analysis_;
  TipPathContext context;
  context.tips_at_end = tips_at_end_;
  context.excited_at_end = excited_;
  context.excitation_spread = spread_;
  context.ever_tips = frames_with_tips_ > 0;
  context.obstacles = obstacles_;
  context.circulation = circulation_period(crossings_, last_t_);
  context.x_max = x_max_;
  context.y_max = y_max_;
  context.dx = dx_;
  analysis_ = analyse_tip_path(path_t_, path_x_, path_y_, context, limits_);
  return *analysis_;
}

void TipTracker::add_summary(JsonObject& summary) const {
  const Rotation r = rotation();
  JsonObject tips;
  tips.add("count_at_end", tips_at_end_);
  if (r.period)
    tips.add("rotation_period", *r.period);
  else
    tips.add_null("rotation_period");
  tips.add("rotations", r.rotations)
      .add("frames_with_tips", frames_with_tips_)
      .add("phase_singularities_at_end", singularities_at_end_)
      .add("phase_singularity_charge_at_end", charge_at_end_)
      .add("v_iso", v_iso_)
      .add("w_iso", w_iso_);
  const TipPathAnalysis& a = path_analysis();
  JsonObject path;
  path.add("class", a.kind).add("turns", a.turns);
  auto optional = [&path](const char* key, const std::optional<real>& value) {
    if (value)
      path.add(key, *value);
    else
      path.add_null(key);
  };
  optional("period", a.period);
  optional("radius", a.radius);
  optional("drift_speed", a.drift_speed);
  optional("meander_frequency", a.meander_frequency);
  optional("meander_ratio", a.meander_ratio);
  path.add("t_from", a.t_from).add("t_to", a.t_to);
  tips.add("path", path);
  summary.add("tips", tips);
}

}  // namespace fhn
