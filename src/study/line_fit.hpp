#pragma once
// A least-squares line y = a + b t through samples (t_k, y_k), k = 0 .. m-1, from the centred
// sums (fewer cancellations than the raw ones):
//   t_mean = sum t / m,  y_mean = sum y / m,
//   S_tt = sum (t - t_mean)^2,  S_ty = sum (t - t_mean)(y - y_mean),
//   b = S_ty / S_tt,  a = y_mean - b t_mean,
// and b's standard error with independent residuals r_k = y_k - a - b t_k:
//   se(b) = sqrt(sum r^2 / (m - 2) / S_tt)   (NaN for m < 3).
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/types.hpp"

namespace fhn {

struct LineFit {
  real slope = 0.0;
  real intercept = 0.0;
  real slope_error = std::numeric_limits<real>::quiet_NaN();
};

// With weights h_k >= 0 (not all 0): the same with weighted means and sums,
//   t_mean = sum h t / sum h, ..., S_tt = sum h (t - t_mean)^2, S_ty = sum h (t - t_mean)(y - y_mean),
//   se(b) = sqrt(sum h r^2 / (m - 2) / S_tt).
// A taper such as Hann's, h_k = sin^2(pi k / (m - 1)), keeps a periodic motion over a window of
// a non-whole number of periods from tilting the line.
template <class T, class Y, class H>
LineFit fit_weighted_line(std::size_t m, T t, Y y, H h) {
  real sum_h = 0.0, mean_t = 0.0, mean_y = 0.0;
  for (std::size_t k = 0; k < m; ++k) {
    sum_h += h(k);
    mean_t += h(k) * t(k);
    mean_y += h(k) * y(k);
  }
  mean_t /= sum_h;
  mean_y /= sum_h;
  real stt = 0.0, sty = 0.0;
  for (std::size_t k = 0; k < m; ++k) {
    stt += h(k) * (t(k) - mean_t) * (t(k) - mean_t);
    sty += h(k) * (t(k) - mean_t) * (y(k) - mean_y);
  }
  LineFit fit;
  fit.slope = sty / stt;
  fit.intercept = mean_y - fit.slope * mean_t;
  if (m >= 3) {
    real rr = 0.0;
    for (std::size_t k = 0; k < m; ++k) {
      const real r = y(k) - fit.intercept - fit.slope * t(k);
      rr += h(k) * r * r;
    }
    fit.slope_error = std::sqrt(rr / static_cast<real>(m - 2) / stt);
  }
  return fit;
}

// The samples are t(k), y(k) for k = 0 .. m-1 (callables, so that a track of records is read in
// place); m >= 2 and the t not all equal. The weighted line with every h_k = 1: the unweighted
// sums to the bit (a product by 1 is exact).
template <class T, class Y>
LineFit fit_line(std::size_t m, T t, Y y) {
  return fit_weighted_line(m, t, y, [](std::size_t) { return real(1); });
}

}  // namespace fhn
