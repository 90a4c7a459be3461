#pragma once
// The CPU backend of a sweep: one Scheme per member (the very scheme `fhn run` would use, so a
// member's result is that run's, bit for bit), the members spread over the cores with OpenMP.
#include <vector>

#include "schemes/member_batch.hpp"

namespace fhn {

class HostMemberBatch final : public MemberBatch {
 public:
  // Member m: make_scheme(problems[m], spec). `threads`: worker threads (0: OpenMP's default,
  // all cores).
  HostMemberBatch(const std::vector<Problem>& problems, const SchemeSpec& spec, int threads);

  std::string name() const override;
  index_t members() const override { return static_cast<index_t>(schemes_.size()); }
  index_t node_count() const override { return schemes_.empty() ? 0 : schemes_[0]->node_count(); }
  index_t steps_done() const override { return step_; }
  void advance(index_t steps) override;
  void sample(const std::vector<index_t>& nodes, std::vector<real>& out) override;
  void check_finite() override;
  std::vector<MemberFailure> take_failures() override;
  void snapshot(index_t member, Snapshot& out) const override { schemes_.at(member)->snapshot(out); }
  // The member's own scheme records them (HostScheme::advance), as in fhn run.
  void record_activation(index_t member, real threshold, bool keep_last) override {
    schemes_.at(member)->record_activation(threshold, keep_last);
  }
  void read_nodes(index_t member, const std::vector<index_t>& nodes, std::vector<real>& v,
                  std::vector<real>& w) const override {
    schemes_.at(member)->read_nodes(nodes, v, w);
  }
  const NewtonStats* newton_stats(index_t member) const override {
    return schemes_.at(member)->newton_stats();
  }

 private:
  int threads_;
  index_t step_ = 0;
  std::vector<std::unique_ptr<Scheme>> schemes_;
  std::vector<char> frozen_;             // per member: failed, no longer advanced
  std::vector<MemberFailure> failures_;  // found, not yet taken
};

}  // namespace fhn
