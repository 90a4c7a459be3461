#pragma once
// The activation times a scheme records inside its steps (Scheme::record_activation; the crossing
// test of schemes/point/activation_point.hpp), on the host: the arrays themselves for the CPU
// schemes, the host side of the device arrays for the GPU ones. They travel in checkpoints as the
// arrays "activation.first" and "activation.last", on the owned nodes (so a distributed run
// gathers and scatters them with v and w), and in every snapshot.
#include <vector>

#include "grid/snapshot.hpp"
#include "schemes/point/activation_point.hpp"

namespace fhn {

struct ActivationRecord {
  bool on = false;
  bool keep_last = false;
  real threshold = 0;
  std::vector<real> first, last;  // NaN: no crossing yet; last empty unless keep_last

  // Recording from now on at `nodes` nodes, every time NaN.
  void start(index_t nodes, real threshold, bool keep_last);
  // The arrays the crossing test writes (host pointers into first and last).
  ActivationArrays arrays();
  void save(SchemeState& state) const;
  // The arrays of a checkpoint; one it lacks (activation was off, or `last` was, before a
  // restart: the activation writer says so in run.log) leaves NaN. IoError on a wrong size or a
  // value that is infinite.
  void restore(const SchemeState& state);
  // Copies into the snapshot's activation arrays (nothing when off).
  void fill(Snapshot& out) const;
};

}  // namespace fhn
