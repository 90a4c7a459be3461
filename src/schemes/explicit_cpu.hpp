#pragma once
// Forward Euler in time, second-order central differences in space, on the CPU: a cable, a sheet
// or a box whose rows are spread over the cores with OpenMP (for_each_node.hpp); a sheet or a box
// also as one rank's slab of a run over several ranks (halo: one row or plane each side,
// exchanged before every step).
#include <memory>
#include <vector>

#include "parallel/halo_exchange.hpp"
#include "schemes/host_scheme.hpp"
#include "schemes/explicit_step.hpp"
#include "schemes/node_box.hpp"

namespace fhn {

class ExplicitCpu final : public HostScheme {
 public:
  explicit ExplicitCpu(const Problem& problem, ExplicitPath path = ExplicitPath::fast);
  // Rank comm.rank()'s slab of a sheet or a box (make_slab_scheme).
  ExplicitCpu(const Problem& problem, Communicator& comm);
  std::string name() const override;
  // Whether step() takes a fast path (false: the generic one).
  bool fast_path() const;

 private:
  void step() override;
  const real* previous_v() const override { return v_next_.data(); }  // swapped out by step()
  // One step from (v_, w_) into (v_next_, w_next_) with the currents I(t) (nullptr: none), for
  // the run's kinetics form K: the fast path of the run's dimension and medium, or the generic
  // one. The form comes by value: the loops' stores cannot alias a local copy, so what the form
  // computes from its parameters alone (a reciprocal, kinetics/fitzhugh.hpp) is computed once
  // per step, not per node.
  template <class K>
  void generic_step(K kin, const real* current);
  template <class K>
  void cable_step(K kin, const real* current);
  template <class K>
  void sheet_step(K kin, const real* current);
  template <class K>
  void box_step(K kin, const real* current);

  void set_up_fields();

  ExplicitPath path_ = ExplicitPath::fast;
  NodeParams params_;  // the grid's (a slab's: its rows, halos included)
  NodeBox owned_;      // the nodes this scheme steps (a slab's owned planes)
  HostExec exec_;
  // A sheet with fields: every node's quadrant byte on the slab's planes (model/tissue.hpp; empty
  // without a mask and other fields) and, when heterogeneous, what its node update reads.
  std::vector<std::uint8_t> quadrants_;
  bool heterogeneous_ = false;
  MediumView medium_;
  std::vector<std::vector<real>> parts_;  // a slab's parts of the per-node arrays medium_ reads
  std::unique_ptr<HaloExchange> halo_;  // a slab's neighbours (nullptr: the whole domain)
  std::vector<real> current_;          // I_stim at t on the slab's rows (empty without stimuli)
  std::vector<real> v_next_, w_next_;  // written by step(), then swapped in
};

}  // namespace fhn
