#pragma once
// The execution layer on the host (docs/ARCHITECTURE.md section 4): one way to run a per-node
// function over a box of nodes (node_box.hpp), f(i, j, k) at every node of the box, the rows
// shared out among the cores with OpenMP (HostExec). The CUDA launch policy is
// cuda/for_each_node.cuh; a slab's scheme runs it over its owned planes after its halo exchange.
// Included by .cpp files only (the OpenMP pragmas need the compiler's OpenMP flag).
#include "schemes/node_box.hpp"

namespace fhn {

// row(j, k) for every row (j, k) of the box, the rows spread over the threads: the loops that
// treat a row's interior apart (so that it vectorises) run on this.
template <class Row>
void for_each_row(const HostExec& exec, const NodeBox& box, const Row& row) {
  const index_t rows_j = box.hi[1] - box.lo[1];
  const index_t rows = rows_j * (box.hi[2] - box.lo[2]);
#pragma omp parallel for schedule(static) if (exec.threaded)
  for (index_t r = 0; r < rows; ++r) row(box.lo[1] + r % rows_j, box.lo[2] + r / rows_j);
}

// f(i, j, k) at every node of the box.
template <class F>
void for_each_node(const HostExec& exec, const NodeBox& box, const F& f) {
  for_each_row(exec, box, [&](index_t j, index_t k) {
    for (index_t i = box.lo[0]; i < box.hi[0]; ++i) f(i, j, k);
  });
}

}  // namespace fhn
