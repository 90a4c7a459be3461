#pragma once
// A time-stepping scheme owns the solution state (on the host or a device) and advances it.
// The time loop sees it as a TimeStepper (schemes/time_stepper.hpp); its events see the rest.
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "grid/domain.hpp"
#include "grid/grid_stats.hpp"
#include "grid/iso_cells.hpp"
#include "grid/snapshot.hpp"
#include "model/problem.hpp"
#include "parallel/communicator.hpp"
#include "schemes/newton.hpp"
#include "schemes/time_stepper.hpp"

namespace fhn {

// steps_done, advance, synchronize, steps_per_pass: TimeStepper's.
class Scheme : public TimeStepper {
 public:
  virtual std::string name() const = 0;
  virtual index_t node_count() const = 0;
  virtual void snapshot(Snapshot& out) const = 0;
  // Index of the first node whose v or w is NaN or infinite, or -1 when all are finite.
  virtual index_t first_non_finite() const = 0;
  // v and w at a few nodes (indices in the node order of snapshot()'s values, on a fixed grid),
  // into v[k] and w[k]: what a probe reads at its own cadence (study/probes.hpp). The default
  // takes a snapshot and picks the nodes (a host copy, every host scheme's); a device scheme
  // copies back those values alone.
  virtual void read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                          std::vector<real>& w) const;
  // A sheet's cells (a box's cube faces) where both v - v_iso and w - w_iso change sign over the
  // corners, with their corners (grid/iso_cells.hpp: where a spiral tip or a filament may lie),
  // in straddling_cells' order, skipping squares with a corner where `skip` is non-zero; and the
  // nodes with v >= v_iso where `outside` is zero (the masks: one byte per node, nullptr: none).
  // What tips and filaments at their own cadence read (output.tips.every,
  // output.filaments.every). The default scans a snapshot on the host (collective in a
  // distributed run, where the root alone gets the squares); a device scheme scans on the device
  // and copies back the squares alone.
  virtual void iso_cells(real v_iso, real w_iso, const std::uint8_t* skip,
                         const std::uint8_t* outside, std::vector<IsoCell>& cells,
                         index_t& excited) const;
  // The state to checkpoint, and its restoration (bitwise: the run continues exactly as it
  // would have without the interruption).
  virtual SchemeState save_state() const = 0;
  virtual void restore_state(const SchemeState& state) = 0;
  // Newton statistics of an implicit scheme; nullptr for explicit ones.
  virtual const NewtonStats* newton_stats() const { return nullptr; }
  // Node counts of a scheme whose grid moves (adaptive_explicit); nullptr on a fixed grid.
  virtual const GridStats* grid_stats() const { return nullptr; }
  // Activation times taken inside every step from now on (schemes/point/activation_point.hpp:
  // per node the first and, with keep_last, the latest upward crossing of `threshold`, linear in
  // time over the step; the GPU's fast kernels test it in their update). Called before the first
  // step, and before restore_state, whose state then carries them (ActivationRecord). From then
  // on snapshot() fills Snapshot::activation_first (and activation_last) and save_state() adds
  // the arrays "activation.first" (and "activation.last"). A scheme that records none (the
  // adaptive grid's, the CUDA Crank-Nicolson cable's: activation maps are a sheet's or a box's)
  // throws ConfigError at output.activation.
  virtual void record_activation(real threshold, bool keep_last);
};

// Index of the first i < n with v[i] or w[i] NaN or infinite, or -1 (host arrays).
index_t first_non_finite(const real* v, const real* w, index_t n);

// The scheme `spec` names for `problem` (a combination the capability table runs in one
// process, config/capabilities.hpp; a refusal is a ConfigError at its key, unlocated: the caller
// holding the Config puts the key's place in front). `newton_log`, when given, receives every
// Newton iteration of an implicit scheme.
std::unique_ptr<Scheme> make_scheme(const Problem& problem, const SchemeSpec& spec,
                                    NewtonLog* newton_log = nullptr);
// At the door: the scheme of config.scheme (make_scheme above).
std::unique_ptr<Scheme> make_scheme(const Config& config, const Problem& problem,
                                    NewtonLog* newton_log = nullptr);

// The scheme of rank comm.rank()'s slab of a run over comm.size() ranks (make_slab of
// parallel/decomposition.hpp, with the halo depth the scheme needs). Its Scheme interface covers
// the owned nodes only: node_count(), snapshot()'s v and w (its domain is the whole run's),
// first_non_finite()'s index and save_state()'s arrays are those of the owned nodes in node
// order, restore_state() takes them back. DistributedScheme (schemes/distributed_scheme.hpp)
// assembles the slabs into the whole run. Throws ConfigError for a scheme that does not run on
// slabs.
std::unique_ptr<Scheme> make_slab_scheme(const Config& config, const Problem& problem,
                                         Communicator& comm, NewtonLog* newton_log = nullptr);

}  // namespace fhn
