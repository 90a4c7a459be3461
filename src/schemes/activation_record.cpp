#include "schemes/activation_record.hpp"

#include <limits>

namespace fhn {
namespace {

constexpr real kNaN = std::numeric_limits<real>::quiet_NaN();

}  // namespace

void ActivationRecord::start(index_t nodes, real threshold_, bool keep_last_) {
  on = true;
  keep_last = keep_last_;
  threshold = threshold_;
  first.assign(static_cast<std::size_t>(nodes), kNaN);
  last.assign(keep_last ? first.size() : 0, kNaN);
}

ActivationArrays ActivationRecord::arrays() {
  if (!on) return {};
  return {first.data(), keep_last ? last.data() : nullptr, threshold};
}

void ActivationRecord::save(SchemeState& state) const {
  if (!on) return;
  state.add("activation.first", first);
  if (keep_last) state.add("activation.last", last);
}

void ActivationRecord::restore(const SchemeState& state) {
  if (!on) return;
  // Checked whole before anything is taken; NaN marks a node that has not activated. An empty
  // "activation.last" (a checkpoint of fhnsim before the times were recorded in the step, with
  // output.activation.last off) holds nothing.
  const bool has_first = state.has("activation.first");
  const bool has_last = keep_last && state.has("activation.last") &&
                        !state.find("activation.last")->empty();
  if (has_first) state.get_finite("activation.first", first.size(), true);
  if (has_last) state.get_finite("activation.last", last.size(), true);
  first = has_first ? *state.find("activation.first") : std::vector<real>(first.size(), kNaN);
  if (keep_last)
    last = has_last ? *state.find("activation.last") : std::vector<real>(last.size(), kNaN);
}

void ActivationRecord::fill(Snapshot& out) const {
  out.activation_first = on ? first : std::vector<real>();
  out.activation_last = on ? last : std::vector<real>();
}

}  // namespace fhn
