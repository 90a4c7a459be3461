#include "study/pseudo_ecg.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.hpp"
#include "core/format.hpp"
#include "grid/snapshot.hpp"
#include "io/csv_resume.hpp"
#include "io/json.hpp"

namespace fhn {
namespace {

// An electrode as ecg.csv and summary.json name it: "(x y)" or "(x y z)".
std::string electrode_label(const Point& p, int dims) {
  std::string at = format_exact(p[0]);
  for (int a = 1; a < EcgSpec::coordinates(dims); ++a) at += " " + format_exact(p[a]);
  return "(" + at + ")";
}

}  // namespace

EcgMedium ecg_medium(const Problem& problem) {
  EcgMedium medium;
  medium.diffusion = problem.model.diffusion;
  if (!problem.fields.diffusion.uniform())
    medium.diffusion_values = problem.fields.diffusion.values.data();
  if (problem.fields.tensor.enabled) medium.tensor = &problem.fields.tensor;
  if (!problem.fields.node_type.empty()) medium.outside = problem.fields.node_type.data();
  return medium;
}

std::vector<real> pseudo_ecg(const Domain& d, const real* v, const EcgMedium& medium,
                             const std::vector<Point>& electrodes) {
  const real h = d.dx;
  const index_t stride[kMaxAxes] = {1, d.nodes[0], d.nodes[0] * d.nodes[1]};
  auto tissue = [&](index_t node) { return medium.outside == nullptr || medium.outside[node] == 0; };
  std::vector<real> sum(electrodes.size(), 0.0);
  const index_t count = d.node_count();
  for (index_t node = 0; node < count; ++node) {
    if (!tissue(node)) continue;
    // The node's place, its trapezoid weight and grad v (central, one-sided at an edge of the
    // grid or the tissue, 0 with neither neighbour).
    index_t index[kMaxAxes] = {node % d.nodes[0], (node / d.nodes[0]) % d.nodes[1],
                               node / (d.nodes[0] * d.nodes[1])};
    Point x{0.0, 0.0, 0.0}, grad{0.0, 0.0, 0.0};
    real weight = 1.0;
    for (int a = 0; a < d.dims; ++a) {
      const index_t i = index[a];
      x[a] = d.coordinate(a, i);
      const bool first = i == 0, last = i == d.nodes[a] - 1;
      weight *= (first || last) ? 0.5 * h : h;
      const bool below = !first && tissue(node - stride[a]);
      const bool above = !last && tissue(node + stride[a]);
      if (below && above)
        grad[a] = (v[node + stride[a]] - v[node - stride[a]]) / (2.0 * h);
      else if (above)
        grad[a] = (v[node + stride[a]] - v[node]) / h;
      else if (below)
        grad[a] = (v[node] - v[node - stride[a]]) / h;
    }
    // The impressed current -D grad v, times the node's weight.
    Point current{0.0, 0.0, 0.0};
    if (medium.tensor) {
      const TensorField& t = *medium.tensor;
      const std::size_t n = static_cast<std::size_t>(node);
      const real xx = t.uniform() ? t.xx : t.xx_values[n];
      const real xy = t.uniform() ? t.xy : t.xy_values[n];
      const real yy = t.uniform() ? t.yy : t.yy_values[n];
      current[0] = -weight * (xx * grad[0] + xy * grad[1]);
      current[1] = -weight * (xy * grad[0] + yy * grad[1]);
    } else {
      const real D = medium.diffusion_values ? medium.diffusion_values[node] : medium.diffusion;
      for (int a = 0; a < d.dims; ++a) current[a] = -weight * D * grad[a];
    }
    // (-D grad v) . grad(1/r), grad(1/r) = (x_e - x) / r^3.
    for (std::size_t e = 0; e < electrodes.size(); ++e) {
      const Point& p = electrodes[e];
      const real dx = p[0] - x[0], dy = p[1] - x[1], dz = p[2] - x[2];
      const real r = std::sqrt(dx * dx + dy * dy + dz * dz);
      sum[e] += (current[0] * dx + current[1] * dy + current[2] * dz) / (r * r * r);
    }
  }
  return sum;
}

std::string PseudoEcg::header(const std::vector<Point>& electrodes, int dims) {
  std::string text = "t";
  for (const Point& p : electrodes) text += ",phi@" + electrode_label(p, dims);
  return text + "\n";
}

PseudoEcg::PseudoEcg(const std::filesystem::path& file, std::vector<Point> electrodes,
                     EcgMedium medium, int dims, bool append)
    : path_(file),
      electrodes_(std::move(electrodes)),
      medium_(medium),
      dims_(dims),
      out_(open_csv(file, header(electrodes_, dims).c_str(), append)),
      extremes_(electrodes_.size()) {}

void PseudoEcg::write(const FrameView& sample) {
  FHN_VERIFY(sample.nodes == nullptr, InternalError,
             "the pseudo-ECG is computed on the uniform grid's nodes");
  const std::vector<real> phi = pseudo_ecg(*sample.domain, sample.v, medium_, electrodes_);
  std::string row = format_exact(sample.t);
  for (std::size_t e = 0; e < phi.size(); ++e) {
    row += "," + format_exact(phi[e]);
    Extremes& x = extremes_[e];
    // The first sample sets both; later ones replace them only when strictly beyond, so a
    // sample taken again after a restart (the checkpoint's step) changes nothing.
    if (samples_ == 0 || phi[e] > x.max) x.max = phi[e], x.t_max = sample.t;
    if (samples_ == 0 || phi[e] < x.min) x.min = phi[e], x.t_min = sample.t;
  }
  if (std::fprintf(out_.get(), "%s\n", row.c_str()) < 0 || std::fflush(out_.get()) != 0)
    throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
  if (sample.step != last_step_) ++samples_;
  last_step_ = sample.step;
}

void PseudoEcg::save(SchemeState& state) {
  // The samples before the checkpoint's step: a restart takes the one at that step again.
  const index_t before = samples_ - (samples_ > 0 && last_step_ == state.step ? 1 : 0);
  std::vector<real> saved{static_cast<real>(before)};
  for (const Extremes& x : extremes_) saved.insert(saved.end(), {x.max, x.t_max, x.min, x.t_min});
  state.add("ecg.extremes", saved);
}

std::string PseudoEcg::restore(const SchemeState& state) {
  const std::vector<real>* saved = state.find("ecg.extremes");
  if (saved == nullptr || saved->size() != 1 + 4 * extremes_.size())
    return "ecg.csv: the checkpoint holds no extremes of these " +
           std::to_string(electrodes_.size()) +
           " electrodes (output.ecg was off or other before the restart); summary.json's ecg "
           "extremes cover only the samples from the restart on";
  const std::vector<real>& s = state.get_finite("ecg.extremes", saved->size());
  samples_ = checkpoint_count(s[0], state.step + 1, "ecg.extremes' sample count");
  for (std::size_t e = 0; e < extremes_.size(); ++e)
    extremes_[e] = {s[1 + 4 * e], s[2 + 4 * e], s[3 + 4 * e], s[4 + 4 * e]};
  return "";
}

void PseudoEcg::add_summary(JsonObject& summary, real every) const {
  std::vector<JsonObject> electrodes;
  for (std::size_t e = 0; e < electrodes_.size(); ++e) {
    JsonObject o;
    o.add("at", electrode_label(electrodes_[e], dims_));
    if (samples_ > 0) {
      const Extremes& x = extremes_[e];
      o.add("max", x.max).add("t_max", x.t_max).add("min", x.min).add("t_min", x.t_min);
    } else {
      o.add_null("max").add_null("t_max").add_null("min").add_null("t_min");
    }
    electrodes.push_back(o);
  }
  JsonObject ecg;
  ecg.add("every", every).add("samples", samples_).add("electrodes", electrodes);
  summary.add("ecg", ecg);
}

}  // namespace fhn
