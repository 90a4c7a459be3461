#pragma once
// The members of a parameter sweep advanced in lockstep: cables or sheets on the same grid, with
// the same dt and scheme, each with its own parameters (model, boundary values, initial state,
// stimuli). `fhn sweep` (src/sweep/) sees only this interface; the CPU backend keeps one Scheme
// per member and spreads them over the cores (host_member_batch.hpp), the CUDA backend advances
// all members in one set of kernels over a (members x nodes) array (schemes/cuda/).
#include <memory>
#include <string>
#include <vector>

#include "grid/iso_cells.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"
#include "schemes/time_stepper.hpp"

namespace fhn {

// Why a member stopped: its state stopped being finite, or Newton did not converge.
struct MemberFailure {
  index_t member = 0;
  index_t step = 0;    // the member is frozen at this step (its last good state, where known)
  std::string reason;  // as fhn run would report it
};

// A time stepper (schemes/time_stepper.hpp): fhn sweep drives a batch with the time loop of
// fhn run (run/time_loop.hpp), its checks freezing members rather than stopping the batch.
class MemberBatch : public TimeStepper {
 public:
  virtual std::string name() const = 0;
  virtual index_t members() const = 0;
  virtual index_t node_count() const = 0;  // per member
  // Steps taken so far by the batch (a frozen member stays at the step it failed).
  index_t steps_done() const override = 0;
  // Advances every member that has not failed by `steps`. A member whose step fails (Newton
  // does not converge) is frozen at its last accepted state and reported by take_failures(); the
  // others go on. May return before the work is done (a device queues it); synchronize() waits.
  void advance(index_t steps) override = 0;
  // v at `nodes` (indices into a member's nodes) of every member, member-major:
  // out[m * nodes.size() + p] = v_m[nodes[p]]. Frozen members give their frozen state.
  virtual void sample(const std::vector<index_t>& nodes, std::vector<real>& out) = 0;
  // Looks for members whose v or w stopped being finite, freezes and reports them (through
  // take_failures()).
  virtual void check_finite() = 0;
  // Failures found since the last call, in member order.
  virtual std::vector<MemberFailure> take_failures() = 0;
  // A host copy of one member's state (with its activation times where it records them).
  virtual void snapshot(index_t member, Snapshot& out) const = 0;
  // Activation times taken inside every step from now on for member `member` alone, as the
  // scheme fhn run makes of its config takes them (Scheme::record_activation: per node the first
  // and, with keep_last, the latest upward crossing of `threshold`, linear in time over the step);
  // members not asked for pay nothing. Called before the first step. From then on
  // snapshot(member) fills Snapshot::activation_first (and activation_last).
  virtual void record_activation(index_t member, real threshold, bool keep_last) = 0;
  // v and w of member `member` at `nodes` (indices into its nodes), into v[k] and w[k]: what the
  // probes of its own files read at their cadence (Scheme::read_nodes of the scheme fhn run makes
  // of its config; a device batch copies back those values alone). A frozen member gives its
  // frozen state.
  virtual void read_nodes(index_t member, const std::vector<index_t>& nodes, std::vector<real>& v,
                          std::vector<real>& w) const = 0;
  // Sheets: for every member m, the cells of its sheet where both v - v_iso[m] and
  // w - w_iso[m] change sign (grid/iso_cells.hpp: where a spiral tip may lie), in cell order,
  // into cells[m], and the number of its nodes with v at or above v_iso[m] (excited[m]).
  // Frozen members give their frozen state's. This default scans snapshots on the host; the CUDA
  // batch scans on the device and copies only the cells and the counts.
  virtual void iso_cells(const std::vector<real>& v_iso, const std::vector<real>& w_iso,
                         std::vector<std::vector<IsoCell>>& cells,
                         std::vector<index_t>& excited) const;
  // Newton statistics of one member (implicit schemes); nullptr for explicit ones.
  virtual const NewtonStats* newton_stats(index_t member) const = 0;
};

// The batch for members that share grid, dt and scheme (`spec`, whose backend decides where
// they run; `problems[m]` describes member m). `threads`: CPU worker threads (0: all cores).
// Throws ConfigError for a combination the capability table does not batch (at its key,
// unlocated: fhn sweep's plan refuses those first, where it has the base config) or a scheme the
// backend cannot batch, DeviceError without CUDA.
std::unique_ptr<MemberBatch> make_member_batch(const std::vector<Problem>& problems,
                                               const SchemeSpec& spec, int threads = 0);

// Device memory one member of `nodes` nodes takes in the CUDA batch of `spec` (state and work
// arrays, nodes x bytes per node), for splitting a sweep into batches that fit. A single run's
// CUDA cable scheme holds the same arrays per node (run/memory_estimate.cpp).
std::size_t cuda_bytes_per_node(const SchemeSpec& spec);
std::size_t cuda_member_bytes(const SchemeSpec& spec, index_t nodes);

}  // namespace fhn
