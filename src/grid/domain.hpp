#pragma once
// The uniform grid a run lives on: a cable (1 axis) or a sheet (2 axes; a box with 3 axes is the
// same description with one more entry). Every axis has the same spacing dx and both of its ends
// are nodes: x_a(i) = i L_a / (N_a - 1), i = 0..N_a-1. Nodes are numbered with the first axis
// fastest: node = i + N_x j (+ N_x N_y k), so a row along x is contiguous and a column along y
// has stride N_x.
#include <array>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fhn {

constexpr int kMaxAxes = 3;

// A position (x, y, z); the entries beyond a domain's dims are 0.
using Point = std::array<real, kMaxAxes>;

struct Domain {
  int dims = 1;                                      // 1: cable along x; 2: sheet in x and y
  std::array<real, kMaxAxes> length{200.0, 0.0, 0.0};  // L_a (0 beyond dims)
  std::array<index_t, kMaxAxes> nodes{401, 1, 1};      // N_a (1 beyond dims)
  real dx = 0.5;                                     // spacing, the same along every axis

  index_t node_count() const { return nodes[0] * nodes[1] * nodes[2]; }
  // Distance in the node numbering between neighbours along `axis`: 1, N_x, N_x N_y.
  index_t stride(int axis) const {
    index_t s = 1;
    for (int a = 0; a < axis; ++a) s *= nodes[a];
    return s;
  }
  // x_a(i) = L_a (i / (N_a - 1)): exact at both ends.
  real coordinate(int axis, index_t i) const {
    return length[axis] * (static_cast<real>(i) / static_cast<real>(nodes[axis] - 1));
  }
  // x_a(0), ..., x_a(N_a - 1); empty for an axis beyond dims (a cable lists no y).
  std::vector<real> coordinates(int axis) const {
    if (axis >= dims) return {};
    std::vector<real> x(static_cast<std::size_t>(nodes[axis]));
    for (index_t i = 0; i < nodes[axis]; ++i) x[static_cast<std::size_t>(i)] = coordinate(axis, i);
    return x;
  }
  // The position of node `node`.
  // The node's index along each axis (0 beyond dims): node = at[0] + N_0 (at[1] + N_1 at[2]).
  void axis_indices(index_t node, index_t (&at)[kMaxAxes]) const {
    for (int a = 0; a < kMaxAxes; ++a) {
      at[a] = node % nodes[a];
      node /= nodes[a];
    }
  }
  Point position(index_t node) const {
    Point p{0.0, 0.0, 0.0};
    for (int a = 0; a < dims; ++a) {
      p[a] = coordinate(a, node % nodes[a]);
      node /= nodes[a];
    }
    return p;
  }
  // "x = 1.5" or "x = 1.5, y = 2" (the position), for messages.
  std::string describe(const Point& p) const;
  // "x = 1.5, y = 2 (node i = 3, j = 4)".
  std::string describe_node(index_t node) const;
  // "401 nodes, dx = 0.5, length = 200" or "401 x 201 nodes, dx = 0.5, [0, 200] x [0, 100]".
  std::string summary() const;
  // What the domain is called in messages: "cable", "sheet" or "box".
  const char* kind() const { return dims == 1 ? "cable" : dims == 2 ? "sheet" : "box"; }
};

// Where a cable's values sit along x: value i on node i of `domain`, or, on the adaptive grid, on
// the base-grid node nodes[i] (ascending). The positions come from the domain itself (x[i] =
// domain->coordinate(0, node)), so frames and snapshots carry no coordinates of their own.
struct CablePositions {
  const Domain* domain = nullptr;
  const index_t* nodes = nullptr;  // nullptr: value i on node i

  real operator[](index_t i) const { return domain->coordinate(0, nodes ? nodes[i] : i); }
};

// A cable of `nodes` nodes, spacing dx, along x from 0.
inline Domain cable(index_t nodes, real dx) {
  Domain d;
  d.length = {dx * static_cast<real>(nodes - 1), 0.0, 0.0};
  d.nodes = {nodes, 1, 1};
  d.dx = dx;
  return d;
}

// The name of axis a: "x", "y", "z".
inline const char* axis_name(int axis) { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

}  // namespace fhn
