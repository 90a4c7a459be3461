// Forward Euler over the members of a sweep (member_batch_cuda.cuh): the temporally blocked
// kernels of explicit_kernels.cu (cables) and explicit_sheet_kernels.cu (sheets) with a member
// dimension.
#include <algorithm>
#include <utility>

#include "schemes/cuda/explicit_kernels.cuh"
#include "schemes/cuda/explicit_sheet_kernels.cuh"
#include "schemes/cuda/member_batch_cuda.cuh"

namespace fhn::cuda {
namespace {

// Forward Euler: full passes, then one shorter pass for the rest (as the single cable or sheet,
// so a member's result does not depend on how advance() is split: a node takes the same
// expression in every pass). Cables: kStepsPerPass steps a pass (explicit_kernels.cu); sheets:
// kExplicitSheetStepsPerPass (explicit_sheet_kernels.cu); one step a pass while a member records
// activation times (its crossing test after every step). Frozen members are copied through by
// the kernels.
class ExplicitMembersCuda final : public MemberBatchCuda {
 public:
  ExplicitMembersCuda(const std::vector<Problem>& problems, const SchemeSpec& spec)
      : MemberBatchCuda(problems, spec),
        v_next_(entries(), "sweep v (next)"),
        w_next_(entries(), "sweep w (next)"),
        shape_(node_params(problems.front())) {}

  std::string name() const override {
    return std::string("explicit forward Euler") + (sheets() ? " on a sheet" : "") + ", " +
           members_text() + " (cuda, " + device_name_ + ")";
  }
  void advance(index_t steps) override {
    const Members b = view();
    const MemberArrays arrays{members_, pitch_, params_.data(), kinetics_.data(), frozen_.data()};
    const index_t per_pass = recording() ? 1 : sheets() ? kExplicitSheetStepsPerPass : kStepsPerPass;
    while (steps > 0) {
      const int pass = static_cast<int>(std::min<index_t>(steps, per_pass));
      if (sheets())
        launch_explicit_sheet_members_blocked(v_.data(), w_.data(), v_next_.data(), w_next_.data(),
                                              shape_, arrays, form_, b.stimuli, step_, pass);
      else
        launch_explicit_members_blocked(v_.data(), w_.data(), v_next_.data(), w_next_.data(), n_,
                                        arrays, form_, b.stimuli, step_, pass);
      std::swap(v_, v_next_);
      std::swap(w_, w_next_);
      if (recording()) record_crossings(step_);
      step_ += pass;
      steps -= pass;
    }
  }
  const NewtonStats* newton_stats(index_t) const override { return nullptr; }

 private:
  bool sheets() const { return domain_.dims == 2; }

  DeviceBuffer<real> v_next_, w_next_;
  NodeParams shape_;  // the members' common grid (member 0's parameters; the kernels read each
                      // member's own)
};

}  // namespace

std::unique_ptr<MemberBatch> make_explicit_members_cuda(const std::vector<Problem>& problems,
                                                        const SchemeSpec& spec) {
  return std::make_unique<ExplicitMembersCuda>(problems, spec);
}

}  // namespace fhn::cuda
