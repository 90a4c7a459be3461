#pragma once
// The members of a sweep on the GPU (MemberBatch, schemes/member_batch.hpp): what the batches
// share (this header, member_batch_cuda.cu: the factory and the kernels of every scheme; the
// batch as kernels see it, Members, in device_fields.cuh), forward Euler on cables and sheets
// (explicit_members_cuda.cu), Crank-Nicolson / Newton on cables (crank_nicolson_members_cuda.cu,
// with the single run's kernels of crank_nicolson_kernels.cuh, the members one more axis) and
// Crank-Nicolson by Strang splitting on cables and sheets (adi_members_cuda.cu, which has its
// layout and bytes).
//
// Every member is a
// cable or sheet of n nodes on the same grid, with its own parameters (NodeParams and its kinetics form's
// parameters, one form for all), initial state and
// stimuli, and all members advance together in one set of kernels over a (members x pitch)
// member-major array: member m owns entries [m pitch, m pitch + n), pitch = n rounded up to even
// (each member starts 16-byte aligned for the explicit kernel's pair loads).
//
// Forward Euler: the temporally blocked kernel of explicit_kernels.cu with a member dimension
// (launch_explicit_members_blocked, kStepsPerPass steps per pass). Bytes per node and step:
// 32 / kStepsPerPass (read v, w; write v+, w+ once per pass) plus the halos, as a single cable.
//
// Crank-Nicolson / Newton (w trapezoidal or leapfrog), per step from t (k = dt, one member's
// rows as crank_nicolson_point.hpp):
//   prepare:  p = cn_w_offset(v, w, w-),  rhs = cn_rhs_node (I = its mean over the step),  u = v
//   Newton iteration j, while the member iterates:
//     assemble: F(u) and J's diagonal (cn_newton_node); ||F||_inf, diagonal dominance
//     solve:    J du = F, every member's system in ONE batched solve (J's off-diagonals are
//               constant: built once per member)
//     update:   u -= du; ||du||_inf
//     check:    ||du||_inf < tolerance: the member has converged and later iterations of the
//               step leave it alone; a non-finite norm or a row that is not dominant: failed
//   accept:   converged members take v+ = u (a buffer swap for all), w+ = p + c u; the others
//             (failed now or frozen before) get v^n, w^n copied back and are frozen.
// The host launches as many iterations as the previous step needed, then copies the per-member
// flags and norms once (pinned memory, one synchronisation) and launches single iterations
// while members still iterate; the Newton statistics of a step are recorded while the device
// runs the next one.
// Bytes per node (DRAM, each array read or written once; neighbours come from the cache):
//   prepare  read v, w (leapfrog: and w-), write p, rhs, u:   40 B (leapfrog 48 B)
//   assemble read u, p, rhs, write F, diag:                    40 B (off-diagonals recomputed)
//   solve    batched partitioned, per-system coefficients:     72 B (+ 10 B interface values)
//   update   read u, du, write u:                              24 B
//   accept   read p, u, write w:                               24 B
// so 136 B (+ 10) per Newton iteration and 64 B (leapfrog 72 B) per step besides.
//
// Activation times (record_activation) for the members asked for alone (a sweep's output
// members): after every step the crossing test of schemes/point/activation_point.hpp over each
// such member's nodes, from its v^n kept on the device to its v^{n+1} (launch_record_crossings of
// device_activation.cu, the single runs' kernel), then v^{n+1} kept for the next step: 24 B per
// node and step of such a member (read v^n, v^{n+1}, write the kept v), besides its times. While
// a member records, the batch runs its steps one at a time (the explicit kernels one step a pass,
// the split scheme's reaction halves apart), which gives the same bits.
//
// Device memory per node of a member (8-byte reals, over the pitch): forward Euler 32 B (v, w and
// the next ones); Crank-Nicolson 72 B (v, w, u, p, rhs, F/du, J's diagonal, lower, upper),
// leapfrog 80 B (w-), plus the solver's workspace: partitioned 4 B (8 interface values per 16
// rows), cusparse its gtsv2StridedBatch buffer. Per member besides: its NodeParams, stimulus
// table, frozen flag and (Newton) 3 + 2 max_iterations norm and flag slots of 8 B.
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "core/cuda/device_buffer.hpp"
#include "core/error.hpp"
#include "kinetics/kinetics.hpp"
#include "schemes/cuda/device_activation.cuh"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/member_batch.hpp"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// A cell found by MemberBatchCuda::iso_cells: its member and the cell with its corners.
struct MemberCell {
  index_t member;
  IsoCell cell;
};

// What both schemes share: the member-major v and w, the members' parameters (NodeParams and
// their kinetics, of the form of member 0, which every member shares), stimuli and frozen flags
// on the device, the scheme's settings (`spec`, every member's), and the MemberBatch methods
// that need nothing else.
class MemberBatchCuda : public MemberBatch {
 public:
  MemberBatchCuda(const std::vector<Problem>& problems, const SchemeSpec& spec)
      : members_(static_cast<index_t>(problems.size())),
        n_(problems.front().domain.node_count()),
        pitch_((n_ + 1) / 2 * 2),
        time_(problems.front().time),
        domain_(problems.front().domain),
        spec_(spec),
        v_(entries(), "sweep v"),
        w_(entries(), "sweep w"),
        params_(problems.size(), "sweep member parameters"),
        form_(problems.front().model.kinetics),
        frozen_(problems.size(), "sweep frozen flags"),
        first_bad_(problems.size(), "sweep non-finite search"),
        stimulus_count_(static_cast<int>(problems.front().stimuli.stimuli().size())),
        table_(problems.size() * static_cast<std::size_t>(stimulus_count_), "sweep stimuli"),
        frozen_host_(problems.size(), 0),
        member_step_(problems.size(), 0),
        device_name_(current_device_name()) {
    std::vector<NodeParams> params;
    std::vector<NodeStimulus> table;
    // The initial states member by member straight from the problems (no host copy of the
    // batch: at 1024 x 256^2 that was 1 GB to fill and copy), the padding zero.
    FHN_CUDA_CHECK(cudaMemset(v_.data(), 0, entries() * sizeof(real)));
    FHN_CUDA_CHECK(cudaMemset(w_.data(), 0, entries() * sizeof(real)));
    for (index_t m = 0; m < members_; ++m) {
      const Problem& problem = problems[static_cast<std::size_t>(m)];
      FHN_VERIFY(problem.domain.node_count() == n_ && problem.time.dt == time_.dt &&
                     static_cast<int>(problem.stimuli.stimuli().size()) == stimulus_count_ &&
                     problem.model.kinetics.index() == form_.index(),
                 InternalError,
                 "cuda sweep: member " + std::to_string(m) +
                     " differs from member 0 in its node count, time step, number of stimuli or "
                     "kinetics form");
      params.push_back(node_params(problem));
      table.insert(table.end(), problem.stimuli.stimuli().begin(), problem.stimuli.stimuli().end());
      const auto bytes = static_cast<std::size_t>(n_) * sizeof(real);
      FHN_CUDA_CHECK(cudaMemcpy(v_.data() + m * pitch_, problem.v0.data(), bytes, cudaMemcpyHostToDevice));
      FHN_CUDA_CHECK(cudaMemcpy(w_.data() + m * pitch_, problem.w0.data(), bytes, cudaMemcpyHostToDevice));
    }
    params_.upload(params.data(), params.size());
    with_kinetics(form_, [&](const auto& kin) {
      using K = std::decay_t<decltype(kin)>;
      std::vector<K> kinetics;
      for (const Problem& problem : problems) kinetics.push_back(std::get<K>(problem.model.kinetics));
      kinetics_ = DeviceBuffer<unsigned char>(kinetics.size() * sizeof(K), "sweep member kinetics");
      kinetics_.upload(reinterpret_cast<const unsigned char*>(kinetics.data()),
                       kinetics.size() * sizeof(K));
    });
    if (!table.empty()) table_.upload(table.data(), table.size());
    FHN_CUDA_CHECK(cudaMemset(frozen_.data(), 0, frozen_.size() * sizeof(int)));
    stimulus_dt_ = problems.front().stimuli.dt();
    stimulus_tolerance_ = problems.front().stimuli.tolerance();
  }

  index_t members() const override { return members_; }
  index_t node_count() const override { return n_; }
  index_t steps_done() const override { return step_; }
  void synchronize() const override { FHN_CUDA_CHECK(cudaDeviceSynchronize()); }

  // One gather kernel and one copy; the device copy of `nodes` is kept for the next call.
  void sample(const std::vector<index_t>& nodes, std::vector<real>& out) override;
  // One search kernel and one copy of a flag per member; each member found is frozen where it
  // stands and reported as fhn run reports a non-finite solution.
  void check_finite() override;
  // Sheets: one scan kernel over every member's cells (the test of straddling_cells), which
  // appends the cells found with their corners; one copy of the count and the flags, one of the
  // cells (a second scan when they outgrow the buffer), sorted into cell order on the host.
  void iso_cells(const std::vector<real>& v_iso, const std::vector<real>& w_iso,
                 std::vector<std::vector<IsoCell>>& cells,
                 std::vector<index_t>& excited) const override;

  std::vector<MemberFailure> take_failures() override {
    std::stable_sort(
        failures_.begin(), failures_.end(),
        [](const MemberFailure& a, const MemberFailure& b) { return a.member < b.member; });
    return std::exchange(failures_, {});
  }

  void snapshot(index_t member, Snapshot& out) const override {
    FHN_VERIFY(member >= 0 && member < members_, InternalError,
               "cuda sweep: no member " + std::to_string(member));
    const auto first = static_cast<std::size_t>(member * pitch_);
    const auto n = static_cast<std::size_t>(n_);
    out.step = frozen_host_[member] ? member_step_[member] : step_;
    out.t = time_.t(out.step);
    out.domain = domain_;
    out.nodes.clear();
    out.v.resize(n);
    out.w.resize(n);
    FHN_CUDA_CHECK(cudaMemcpy(out.v.data(), v_.data() + first, n * sizeof(real),
                              cudaMemcpyDeviceToHost));
    FHN_CUDA_CHECK(cudaMemcpy(out.w.data(), w_.data() + first, n * sizeof(real),
                              cudaMemcpyDeviceToHost));
    fill_activation(member, out);
  }
  // The member's times NaN and its v kept as the first step's v^n (synchronises).
  void record_activation(index_t member, real threshold, bool keep_last) override;
  // Two gathers over the member's nodes (v, w) and one copy; the device copy of `nodes` is kept
  // for the next call.
  void read_nodes(index_t member, const std::vector<index_t>& nodes, std::vector<real>& v,
                  std::vector<real>& w) const override;

 protected:
  std::size_t entries() const { return static_cast<std::size_t>(members_ * pitch_); }
  Members view() const {
    return {static_cast<unsigned>(members_), static_cast<unsigned>(pitch_),
            static_cast<unsigned>(n_), params_.data(),
            StimulusTable{table_.data(), stimulus_count_, stimulus_dt_, stimulus_tolerance_}};
  }
  // Stops advancing member m (its state stays as it is now, at step_).
  void freeze(index_t m) {
    frozen_host_[m] = 1;
    member_step_[m] = step_;
    const int one = 1;
    FHN_CUDA_CHECK(cudaMemcpy(frozen_.data() + m, &one, sizeof one, cudaMemcpyHostToDevice));
  }
  // The members' kinetics as form K's (K: the type of `form`, form_'s alternative).
  template <class K>
  const K* kinetics_of(const K&) const {
    return reinterpret_cast<const K*>(kinetics_.data());
  }
  std::string members_text() const {
    return std::to_string(members_) + (members_ == 1 ? " member" : " members");
  }
  // Whether a member records activation times: advance() then runs its steps one at a time and
  // calls record_crossings after each.
  bool recording() const { return !recording_.empty(); }
  // The crossing test of every recording member for the step from `step` just taken (v_ holds
  // v^{n+1}), then v^{n+1} kept as the next step's v^n. Queued, no sync.
  void record_crossings(index_t step);

  index_t members_, n_, pitch_;
  TimeGrid time_;  // member 0's; every member shares its dt (checked in the constructor)
  Domain domain_;  // member 0's; every member shares its grid
  SchemeSpec spec_;
  DeviceBuffer<real> v_, w_;
  DeviceBuffer<NodeParams> params_;
  Kinetics form_;                      // member 0's: the type of kinetics_'s entries
  DeviceBuffer<unsigned char> kinetics_;  // one of form_'s type per member
  DeviceBuffer<int> frozen_;
  DeviceBuffer<unsigned long long> first_bad_;  // per member: first non-finite node, ~0 none
  int stimulus_count_;
  real stimulus_dt_ = 0.0, stimulus_tolerance_ = 0.0;
  DeviceBuffer<NodeStimulus> table_;
  std::vector<char> frozen_host_;    // mirrors frozen_
  std::vector<index_t> member_step_;  // where a frozen member stopped
  std::vector<MemberFailure> failures_;
  std::string device_name_;
  index_t step_ = 0;
  index_t last_check_ = 0;  // step of the last check_finite()
  std::vector<index_t> sample_nodes_;
  DeviceBuffer<index_t> sample_index_;
  DeviceBuffer<real> sample_out_;
  // iso_cells: the members' levels, the cells found (grown as needed) and their count, the
  // members' excited nodes.
  mutable DeviceBuffer<real> iso_levels_;
  mutable DeviceBuffer<MemberCell> iso_found_;
  mutable DeviceBuffer<unsigned long long> iso_count_;
  mutable DeviceBuffer<unsigned long long> iso_excited_;

 private:
  // A member recording its activation times: v^n of the step under way and the times (NaN: no
  // crossing yet; `last` allocated with keep_last), over its n nodes.
  struct Recording {
    // Member m's arrays of n nodes, the times NaN (uploads).
    Recording(index_t m, index_t n, real threshold, bool keep_last);
    index_t member;
    ActivationRecord host;  // threshold, keep_last; the times as last copied for a snapshot
    DeviceBuffer<real> before, first, last;
  };
  // Member m's times into `out` (its arrays emptied where it records none).
  void fill_activation(index_t member, Snapshot& out) const;

  mutable std::vector<Recording> recording_;
  // read_nodes: the nodes' device copy, and the values gathered (v, then w).
  mutable std::vector<index_t> read_nodes_;
  mutable DeviceBuffer<index_t> read_index_;
  mutable DeviceBuffer<real> read_out_;
};

// The batches (explicit_members_cuda.cu: cables and sheets; crank_nicolson_members_cuda.cu:
// Newton on cables; adi_members_cuda.cu: the split scheme on cables and sheets).
std::unique_ptr<MemberBatch> make_explicit_members_cuda(const std::vector<Problem>& problems,
                                                        const SchemeSpec& spec);
std::unique_ptr<MemberBatch> make_crank_nicolson_members_cuda(const std::vector<Problem>& problems,
                                                              const SchemeSpec& spec);
std::unique_ptr<MemberBatch> make_adi_members_cuda(const std::vector<Problem>& problems,
                                                   const SchemeSpec& spec);

}  // namespace fhn::cuda
