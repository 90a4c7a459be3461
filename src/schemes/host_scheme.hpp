#pragma once
// Common part of the schemes that keep their state in host memory on the uniform grid: the
// state, the step counter and the bookkeeping of the Scheme interface. A subclass implements
// step(), which advances v_ and w_ by one dt.
#include "schemes/scheme.hpp"

namespace fhn {

class HostScheme : public Scheme {
 public:
  explicit HostScheme(const Problem& problem)
      : problem_(problem), v_(problem.v0), w_(problem.w0) {}

  index_t node_count() const override { return problem_.nodes; }
  index_t steps_done() const override { return step_; }
  void advance(index_t steps) override {
    for (index_t s = 0; s < steps; ++s) {
      step();
      ++step_;
    }
  }
  void snapshot(Snapshot& out) const override {
    out.step = step_;
    out.t = static_cast<real>(step_) * problem_.dt;
    out.x = problem_.x;
    out.y = problem_.y;
    out.v = v_;
    out.w = w_;
  }
  index_t first_non_finite() const override { return fhn::first_non_finite(v_, w_); }

  SchemeState save_state() const override {
    SchemeState state;
    state.step = step_;
    state.add("v", v_);
    state.add("w", w_);
    save_extra(state);
    return state;
  }
  void restore_state(const SchemeState& state) override {
    const auto n = static_cast<std::size_t>(problem_.nodes);
    v_ = state.get("v", n);
    w_ = state.get("w", n);
    restore_extra(state);
    step_ = state.step;
  }

 protected:
  // State beyond step, v and w (e.g. the leapfrog's previous w).
  virtual void save_extra(SchemeState&) const {}
  virtual void restore_extra(const SchemeState&) {}

  // Advances v_, w_ from t = step_ dt to (step_ + 1) dt; advance() then counts the step.
  virtual void step() = 0;

  Problem problem_;
  index_t step_ = 0;
  std::vector<real> v_, w_;  // state at t = step_ dt
};

}  // namespace fhn
