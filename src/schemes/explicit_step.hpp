#pragma once
// Forward Euler's per-node function, generic over the dimension, the medium and where the
// currents come from: what for_each_node runs (on the CPU, for_each_node.hpp; on the GPU,
// cuda/for_each_node.cuh) on the generic path of the explicit schemes, and what their fast paths
// (ExplicitCpu's row loops, the CUDA schemes' blocked kernels) are tested against bit for bit.
#include "schemes/node_updates.hpp"

namespace fhn {

// Which node loop an explicit scheme runs: its fast path where it has one for the run's
// dimension and medium (ExplicitCpu: the row loops whose interior vectorises, for a cable, a
// uniform or masked sheet and a box; the CUDA scheme: the hand-tuned kernels), or the generic one
// (for_each_node over ExplicitStep), which every fast path equals bit for bit.
enum class ExplicitPath { fast, generic };

// The currents from a host array laid out like v (nullptr: none).
struct ArrayCurrents {
  const real* values;
  FHN_HOST_DEVICE real operator()(index_t c, index_t, index_t, index_t) const {
    return values ? values[c] : 0.0;
  }
};

// The kinetics a node update takes: the run's form, or on a heterogeneous sheet its parameters
// at the node (FieldKinetics).
template <class K, class Medium>
FHN_HOST_DEVICE inline const K& node_kinetics(const K& kin, const Medium&) {
  return kin;
}
template <class K>
FHN_HOST_DEVICE inline FieldKinetics<K> node_kinetics(const K& kin, const MediumView& m) {
  return field_kinetics(kin, m);
}

// One step at node (i, j, k) from (v, w) into (v_next, w_next): the point layer's explicit_update
// of the dimension Dims (a sheet's with `medium`: UniformMedium, MaskedMedium or MediumView),
// current(c, i, j, k) the current at the node of array index c.
template <int Dims, class Medium, class K, class Currents>
struct ExplicitStep {
  const real* v;
  const real* w;
  real* v_next;
  real* w_next;
  NodeParams q;
  Medium medium;
  K kin;
  Currents current;

  FHN_HOST_DEVICE void operator()(index_t i, index_t j, index_t k) const {
    ExplicitPointUpdate u;
    index_t c;
    if constexpr (Dims == 1) {
      c = i;
      u = explicit_update(v, w, [&](index_t n) { return current(n, n, 0, 0); }, i, q, kin);
    } else if constexpr (Dims == 2) {
      c = sheet_index(i, j, q);
      u = explicit_update(v, w, current(c, i, j, k), i, j, q, medium,
                          node_kinetics(kin, medium));
    } else {
      c = box_index(i, j, k, q);
      u = explicit_update(v, w, current(c, i, j, k), i, j, k, q, kin);
    }
    v_next[c] = u.v;
    w_next[c] = u.w;
  }
};

}  // namespace fhn
