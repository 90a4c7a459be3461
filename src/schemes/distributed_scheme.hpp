#pragma once
// A run over several ranks, seen as one Scheme: each rank advances its slab's scheme
// (make_slab_scheme), and what the time loop asks of the whole run is assembled here. Every
// method is collective (all ranks call it, in the same order): the root receives the whole
// domain (snapshot, save_state) in the node order of a one-rank run, so writers and checkpoints
// are exactly those of one process and a checkpoint restarts on any number of ranks.
//
//   snapshot       v, w gathered on the root (other ranks: step, t and the domain only)
//   first_non_finite  the smallest global index over the ranks (-1: none)
//   save_state     every array gathered on the root; restore_state scatters the root's
#include <memory>

#include "parallel/communicator.hpp"
#include "schemes/scheme.hpp"

namespace fhn {

class DistributedScheme final : public Scheme {
 public:
  // `part`: this rank's slab of the run on `domain` (make_slab_scheme).
  DistributedScheme(const Domain& domain, Communicator& comm, std::unique_ptr<Scheme> part);

  std::string name() const override;
  index_t node_count() const override { return domain_.node_count(); }
  index_t steps_done() const override { return part_->steps_done(); }
  void advance(index_t steps) override { part_->advance(steps); }
  void synchronize() const override { part_->synchronize(); }
  index_t steps_per_pass() const override { return part_->steps_per_pass(); }
  void snapshot(Snapshot& out) const override;
  void read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                  std::vector<real>& w) const override;
  index_t first_non_finite() const override;
  SchemeState save_state() const override;
  // Reads `state` on the root only (the other ranks may pass an empty one).
  void restore_state(const SchemeState& state) override;
  const NewtonStats* newton_stats() const override { return part_->newton_stats(); }
  void record_activation(real threshold, bool keep_last) override {
    part_->record_activation(threshold, keep_last);
  }

 private:
  Communicator& comm_;
  Domain domain_;                      // the whole run's grid
  std::vector<std::size_t> counts_;    // owned nodes of every rank
  index_t offset_ = 0;                 // global index of this rank's first owned node
  std::unique_ptr<Scheme> part_;       // this rank's slab
};

}  // namespace fhn
