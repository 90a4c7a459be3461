#include "study/tip_path.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

namespace fhn {
namespace {

using Complex = std::complex<real>;

// The most samples analysed (the latest ones): the spectrum's cost grows as their square.
constexpr std::size_t kMaxWindow = 1024;

// The window's samples: z_k = x_k + i y_k and t_k, k from the first sample at or after the
// path's middle time.
struct Window {
  std::vector<real> t;
  std::vector<Complex> z;
};

Window second_half(const std::vector<real>& t, const std::vector<real>& x,
                   const std::vector<real>& y) {
  Window w;
  if (t.empty()) return w;
  const real middle = 0.5 * (t.front() + t.back());
  const std::size_t first = t.size() > kMaxWindow ? t.size() - kMaxWindow : 0;
  for (std::size_t k = first; k < t.size(); ++k)
    if (t[k] >= middle) {
      w.t.push_back(t[k]);
      w.z.emplace_back(x[k], y[k]);
    }
  return w;
}

// Turns of the direction of motion: the unwrapped change of arg(z_{k+1} - z_k) over 2 pi.
// Steps of zero length have no direction and are skipped.
real direction_turns(const std::vector<Complex>& z) {
  real total = 0.0;
  bool have = false;
  real previous = 0.0;
  for (std::size_t k = 0; k + 1 < z.size(); ++k) {
    const Complex step = z[k + 1] - z[k];
    if (step == Complex(0.0, 0.0)) continue;
    const real phi = std::arg(step);
    if (have) total += std::remainder(phi - previous, kTwoPi);
    previous = phi;
    have = true;
  }
  return std::abs(total) / kTwoPi;
}

// The spectrum of the detrended path (step 2 of tip_path.hpp).
class Spectrum {
 public:
  explicit Spectrum(const Window& w) : t_(w.t) {
    const std::size_t n = w.t.size();
    h_.resize(n);
    real sum_h = 0.0, t_mean = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      const real s = std::sin(kTwoPi * 0.5 * static_cast<real>(k) / static_cast<real>(n - 1));
      h_[k] = s * s;
      sum_h += h_[k];
      t_mean += h_[k] * w.t[k];
    }
    t_mean /= sum_h;
    // Weighted least squares z ~ a + b (t - t_mean): a = sum h z / sum h,
    // b = sum h (t - t_mean) z / sum h (t - t_mean)^2.
    Complex a(0.0, 0.0), b_num(0.0, 0.0);
    real b_den = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      a += h_[k] * w.z[k];
      b_num += h_[k] * (w.t[k] - t_mean) * w.z[k];
      b_den += h_[k] * (w.t[k] - t_mean) * (w.t[k] - t_mean);
    }
    a /= sum_h;
    drift_ = b_num / b_den;
    r_.resize(n);
    for (std::size_t k = 0; k < n; ++k) r_[k] = w.z[k] - a - drift_ * (w.t[k] - t_mean);
    sum_h_ = sum_h;
  }

  Complex drift() const { return drift_; }

  // |Z(omega)|.
  real magnitude(real omega) const {
    Complex sum(0.0, 0.0);
    for (std::size_t k = 0; k < r_.size(); ++k)
      sum += h_[k] * r_[k] * std::polar(1.0, -omega * t_[k]);
    return std::abs(sum) / sum_h_;
  }

 private:
  std::vector<real> t_, h_;
  std::vector<Complex> r_;
  Complex drift_;
  real sum_h_ = 1.0;
};

struct Peak {
  real omega = 0.0;
  real amplitude = 0.0;
};

// The largest |Z| on the grid omega_j = j delta, |omega_j| <= limit, outside |omega - avoid| <=
// exclusion, refined by a parabola through log |Z| at the maximum and its grid neighbours.
Peak largest_peak(const Spectrum& s, real delta, real limit, real avoid, real exclusion) {
  const auto steps = static_cast<long>(std::floor(limit / delta));
  long best = 0;
  real best_value = -1.0;
  for (long j = -steps; j <= steps; ++j) {
    const real omega = static_cast<real>(j) * delta;
    if (std::abs(omega - avoid) <= exclusion) continue;
    const real value = s.magnitude(omega);
    if (value > best_value) {
      best_value = value;
      best = j;
    }
  }
  const real omega = static_cast<real>(best) * delta;
  const real below = s.magnitude(omega - delta), above = s.magnitude(omega + delta);
  Peak p{omega, best_value};
  if (below > 0.0 && above > 0.0 && best_value > 0.0) {
    // The vertex of the parabola through (-1, l_-), (0, l_0), (1, l_+), l = log |Z|.
    const real lm = std::log(below), l0 = std::log(best_value), lp = std::log(above);
    const real curvature = lm - 2.0 * l0 + lp;
    if (curvature < 0.0) {
      const real offset = 0.5 * (lm - lp) / curvature;
      if (std::abs(offset) <= 1.0) {
        p.omega = omega + offset * delta;
        p.amplitude = s.magnitude(p.omega);
      }
    }
  }
  return p;
}

}  // namespace

std::optional<real> circulation_period(const std::vector<std::vector<real>>& crossings,
                                       real last_t) {
  std::optional<real> period;
  std::size_t most = 0;
  for (const std::vector<real>& c : crossings) {
    const std::size_t n = c.size();
    if (n < 4 || n <= most) continue;
    const real d[3] = {c[n - 3] - c[n - 4], c[n - 2] - c[n - 3], c[n - 1] - c[n - 2]};
    const real mean = (d[0] + d[1] + d[2]) / 3.0;
    bool regular = mean > 0.0 && last_t - c[n - 1] <= 1.5 * mean;
    for (const real interval : d) regular = regular && std::abs(interval - mean) <= 0.05 * mean;
    if (!regular) continue;
    period = mean;
    most = n;
  }
  return period;
}

TipPathAnalysis analyse_tip_path(const std::vector<real>& t, const std::vector<real>& x,
                                 const std::vector<real>& y, const TipPathContext& context,
                                 const TipPathLimits& limits) {
  TipPathAnalysis a;
  if (context.tips_at_end > limits.breakup) {
    a.kind = "breakup";
    return a;
  }
  if (context.tips_at_end == 0 && context.obstacles && context.circulation) {
    a.kind = "anchored";  // a wave circling a hole: no free end, a period all the same
    a.period = context.circulation;
    return a;
  }
  if (context.tips_at_end == 0 && !context.ever_tips) {
    a.kind = "none";  // no frame had a tip: no spiral to classify
    return a;
  }
  if (context.tips_at_end == 0) {
    // A spiral drifted out: the latest path turned at least once and ran from inside to within
    // two cells of a side. Waves that spread but whose free ends vanished retracted; a start
    // whose excitation only shrank made no wave.
    const real edge = 2.0 * context.dx;
    auto at_side = [&](std::size_t k) {
      return x[k] <= edge || y[k] <= edge || x[k] >= context.x_max - edge ||
             y[k] >= context.y_max - edge;
    };
    std::vector<Complex> path;
    for (std::size_t k = 0; k < t.size(); ++k) path.emplace_back(x[k], y[k]);
    const bool drifted_out = !t.empty() && at_side(t.size() - 1) && !at_side(0) &&
                             direction_turns(path) >= 1.0;
    a.kind = context.ever_tips && drifted_out ? "drift"
             : context.excited_at_end || (context.ever_tips && context.excitation_spread)
                 ? "retract"
                 : "no_wave";
    return a;
  }
  const Window w = second_half(t, x, y);
  if (w.t.size() < 4) {
    a.kind = "unclassified";  // too short a path to tell
    return a;
  }
  a.t_from = w.t.front();
  a.t_to = w.t.back();
  a.turns = direction_turns(w.z);
  if (a.turns < 2.0) {
    // No rotation: the tip moved on, or stayed.
    real length = 0.0;
    for (std::size_t k = 0; k + 1 < w.z.size(); ++k) length += std::abs(w.z[k + 1] - w.z[k]);
    a.kind = std::abs(w.z.back() - w.z.front()) >= 0.5 * length && length > 0.0
                 ? "drift"
                 : "unclassified";
    return a;
  }
  const Spectrum s(w);
  const real dt = (w.t.back() - w.t.front()) / static_cast<real>(w.t.size() - 1);
  const real bin = kTwoPi / (static_cast<real>(w.t.size()) * dt);
  const real nyquist = kTwoPi / (2.0 * dt);
  const Peak first = largest_peak(s, bin / 8.0, nyquist, 0.0, -1.0);
  if (!(first.amplitude > 0.0) || first.omega == 0.0) {
    a.kind = "unclassified";  // turns without a rotation the spectrum can see: no period
    return a;
  }
  const Peak second = largest_peak(s, bin / 8.0, nyquist, first.omega, 3.0 * bin);
  a.period = kTwoPi / std::abs(first.omega);
  a.radius = first.amplitude;
  a.drift_speed = std::abs(s.drift());
  a.meander_frequency = second.omega / kTwoPi;
  a.meander_ratio = second.amplitude / first.amplitude;
  const real drift_per_turn = *a.drift_speed * *a.period;
  a.kind = drift_per_turn > limits.drift * first.amplitude ? "drift"
           : *a.meander_ratio > limits.meander          ? "meander"
                                                         : "rigid";
  return a;
}

}  // namespace fhn
