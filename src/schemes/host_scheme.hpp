#pragma once
// Common part of the schemes that keep their state in host memory on the uniform grid: the
// state, the step counter and the bookkeeping of the Scheme interface. A subclass implements
// step(), which advances v_ and w_ by one dt.
#include <algorithm>
#include <vector>

#include "parallel/decomposition.hpp"
#include "schemes/activation_record.hpp"
#include "schemes/scheme.hpp"

namespace fhn {

class HostScheme : public Scheme {
 public:
  // The whole domain, or one rank's slab of it (parallel/decomposition.hpp): then the arrays
  // hold the slab's planes and its halo planes (zeros where the domain ends), and the Scheme
  // interface covers the owned nodes only (make_slab_scheme).
  explicit HostScheme(const Problem& problem)
      : HostScheme(problem, make_slab(problem.domain, 0, 1, 0)) {}
  HostScheme(const Problem& problem, const Slab& slab)
      : problem_(problem),
        slab_(slab),
        v_(slab_part(problem.v0, slab_)),
        w_(slab_part(problem.w0, slab_)) {}

  index_t node_count() const override { return slab_.owned_nodes(); }
  index_t steps_done() const override { return step_; }
  void advance(index_t steps) override {
    for (index_t s = 0; s < steps; ++s) {
      if (!activation_.on) {
        step();
      } else {
        // The crossing test over the owned nodes, from the step's old v (kept by the scheme, or
        // copied here) to its new one.
        const real* before = nullptr;
        if (!previous_v()) {
          v_before_.assign(v_.begin(), v_.end());
          before = v_before_.data();
        }
        step();
        if (!before) before = previous_v();
        record_crossings(before);
      }
      ++step_;
    }
  }
  void record_activation(real threshold, bool keep_last) override {
    activation_.start(slab_.owned_nodes(), threshold, keep_last);
  }
  void snapshot(Snapshot& out) const override {
    out.step = step_;
    out.t = problem_.time.t(step_);
    out.domain = problem_.domain;
    out.nodes.clear();
    out.v = owned(v_);
    out.w = owned(w_);
    activation_.fill(out);
  }
  void read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                  std::vector<real>& w) const override {
    v.resize(nodes.size());
    w.resize(nodes.size());
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const auto at = static_cast<std::size_t>(slab_.owned_offset() + nodes[k]);
      v[k] = v_[at];
      w[k] = w_[at];
    }
  }
  index_t first_non_finite() const override {
    const std::size_t at = static_cast<std::size_t>(slab_.owned_offset());
    return fhn::first_non_finite(v_.data() + at, w_.data() + at, slab_.owned_nodes());
  }

  SchemeState save_state() const override {
    SchemeState state;
    state.step = step_;
    state.add("v", owned(v_));
    state.add("w", owned(w_));
    activation_.save(state);
    save_extra(state);
    return state;
  }
  void restore_state(const SchemeState& state) override {
    const auto n = static_cast<std::size_t>(slab_.owned_nodes());
    restore_owned(state.get("v", n), v_);
    restore_owned(state.get("w", n), w_);
    activation_.restore(state);
    restore_extra(state);
    step_ = state.step;
  }

 protected:
  // State beyond step, v and w (e.g. the leapfrog's previous w).
  virtual void save_extra(SchemeState&) const {}
  virtual void restore_extra(const SchemeState&) {}

  // Advances v_, w_ from t = step_ dt to (step_ + 1) dt; advance() then counts the step.
  virtual void step() = 0;
  // The step's old v after step() (slab layout), where the scheme keeps it (ExplicitCpu: the
  // buffer swapped out); nullptr: advance() copies v_ before the step when recording activation.
  virtual const real* previous_v() const { return nullptr; }

  // The owned nodes of a slab array, and their restoration.
  std::vector<real> owned(const std::vector<real>& array) const {
    const auto first = array.begin() + slab_.owned_offset();
    return std::vector<real>(first, first + slab_.owned_nodes());
  }
  void restore_owned(const std::vector<real>& values, std::vector<real>& array) const {
    std::copy(values.begin(), values.end(), array.begin() + slab_.owned_offset());
  }

  Problem problem_;
  Slab slab_;  // the whole domain (halo 0) unless a rank's slab
  index_t step_ = 0;
  std::vector<real> v_, w_;  // state at t = step_ dt on the slab's planes (halos included)

 private:
  // After the step from t = step_ dt: the crossing test at every owned node.
  void record_crossings(const real* v_old) {
    const ActivationArrays a = activation_.arrays();
    const index_t at = slab_.owned_offset();
    const real t = problem_.time.t(step_);
    for (index_t c = 0; c < slab_.owned_nodes(); ++c)
      record_crossing(a, c, v_old[at + c], v_[static_cast<std::size_t>(at + c)], t,
                      problem_.time.dt);
  }

  ActivationRecord activation_;
  std::vector<real> v_before_;  // v before the step, when the scheme keeps no previous_v()
};

}  // namespace fhn
