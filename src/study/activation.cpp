#include "study/activation.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "io/output_folder.hpp"
#include "io/vtk_writers.hpp"
#include "grid/snapshot.hpp"

namespace fhn {
namespace {

constexpr real kNaN = std::numeric_limits<real>::quiet_NaN();

}  // namespace

real upward_crossing(real t0, real v0, real t1, real v1, real threshold) {
  if (!(v0 < threshold && v1 >= threshold)) return kNaN;
  // t* = t0 + (threshold - v0) / (v1 - v0) (t1 - t0)
  return t0 + (threshold - v0) / (v1 - v0) * (t1 - t0);
}

void PointActivation::write(const FrameView& f) {
  const real v = f.at(f.v, point_);
  if (!time_ && previous_t_ && f.t > *previous_t_) {
    const real crossing = upward_crossing(*previous_t_, *previous_v_, f.t, v, threshold_);
    if (!std::isnan(crossing)) time_ = crossing;
  }
  previous_t_ = f.t;
  previous_v_ = v;
}

ActivationMap::ActivationMap(const Domain& domain, real threshold, bool keep_last)
    : domain_(domain),
      threshold_(threshold),
      keep_last_(keep_last),
      first_(static_cast<std::size_t>(domain.node_count()), kNaN),
      last_(keep_last ? first_.size() : 0, kNaN) {}

void ActivationMap::take(const real* first, const real* last) {
  first_.assign(first, first + first_.size());
  if (keep_last_) last_.assign(last, last + last_.size());
  taken_ = true;
}

std::vector<real> ActivationMap::conduction_velocity() const {
  const int dims = domain_.dims;
  const real h = domain_.dx;
  std::vector<real> cv(first_.size(), kNaN);
  // d t / d s along one axis at index k of m, from the values at k - 1, k, k + 1: central where
  // both neighbours activated, one-sided where one did, none (NaN) otherwise.
  auto derivative = [h](real below, real centre, real above) {
    const bool has_below = !std::isnan(below), has_above = !std::isnan(above);
    if (has_below && has_above) return (above - below) / (2.0 * h);
    if (has_above) return (above - centre) / h;
    if (has_below) return (centre - below) / h;
    return kNaN;
  };
  const index_t stride[3] = {1, domain_.nodes[0], domain_.nodes[0] * domain_.nodes[1]};
  for (index_t node = 0; node < domain_.node_count(); ++node) {
    const real c = first_[static_cast<std::size_t>(node)];
    if (std::isnan(c)) continue;
    real slowness = 0.0;  // |grad t_act|, as hypot(hypot(t_x, t_y), t_z)
    for (int a = 0; a < dims; ++a) {
      const index_t k = node / stride[a] % domain_.nodes[a];  // the node's index along axis a
      const real below = k > 0 ? first_[static_cast<std::size_t>(node - stride[a])] : kNaN;
      const real above =
          k + 1 < domain_.nodes[a] ? first_[static_cast<std::size_t>(node + stride[a])] : kNaN;
      const real d = derivative(below, c, above);
      slowness = a == 0 ? std::abs(d) : std::hypot(slowness, d);  // NaN when d is undefined
    }
    if (slowness > 0.0) cv[static_cast<std::size_t>(node)] = 1.0 / slowness;
  }
  return cv;
}

namespace {

class ActivationWriter final : public FrameSink {
 public:
  ActivationWriter(std::filesystem::path file, const Domain& domain, real threshold, bool last)
      : file_(std::move(file)), map_(domain, threshold, last) {
    if (file_.has_parent_path()) create_folder(file_.parent_path(), "the output folder");
  }

  void write(const FrameView& frame) override {
    FHN_VERIFY(frame.activation_first && (frame.activation_last || !map_.keeps_last()),
               InternalError, "activation.vti: the frame carries no recorded activation times");
    map_.take(frame.activation_first, frame.activation_last);
  }

  void finish() override {
    if (finished_ || map_.empty()) return;
    finished_ = true;
    std::vector<NamedValues> points{{"activation_time", map_.first()}};
    if (map_.keeps_last()) points.push_back({"last_activation_time", map_.last()});
    points.push_back({"conduction_velocity", map_.conduction_velocity()});
    write_image(file_, map_.domain(), points, {{"THRESHOLD", {map_.threshold()}}});
  }

  // The times are the scheme's (ActivationRecord::restore); here only what it could not take.
  std::string restore(const SchemeState& state) override {
    if (!state.has("activation.first"))
      return "activation.vti: the checkpoint holds no activation times (output.activation was "
             "off before the restart); the map covers only the time from the restart on";
    return map_.keeps_last() &&
                   !(state.has("activation.last") && !state.find("activation.last")->empty())
               ? "activation.vti: the checkpoint holds no last activation times "
                 "(output.activation.last was off before the restart); they cover only the "
                 "steps from the restart on"
               : "";
  }

 private:
  std::filesystem::path file_;
  ActivationMap map_;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<FrameSink> make_activation_writer(const std::filesystem::path& file,
                                                  const Domain& domain, real threshold, bool last) {
  return std::make_unique<ActivationWriter>(file, domain, threshold, last);
}

}  // namespace fhn
