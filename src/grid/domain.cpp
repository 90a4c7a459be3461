#include "grid/domain.hpp"

#include "core/format.hpp"

namespace fhn {

std::string Domain::describe(const Point& p) const {
  std::string text;
  for (int a = 0; a < dims; ++a)
    text += std::string(a > 0 ? ", " : "") + axis_name(a) + " = " + format_exact(p[a]);
  return text;
}

std::string Domain::describe_node(index_t node) const {
  static const char* const index_names[kMaxAxes] = {"i", "j", "k"};
  if (dims == 1) return describe(position(node)) + " (node " + std::to_string(node) + ")";
  std::string indices;
  index_t rest = node;
  for (int a = 0; a < dims; ++a) {
    indices += std::string(a > 0 ? ", " : "") + index_names[a] + " = " +
               std::to_string(rest % nodes[a]);
    rest /= nodes[a];
  }
  return describe(position(node)) + " (node " + indices + ")";
}

std::string Domain::summary() const {
  if (dims == 1)
    return std::to_string(nodes[0]) + " nodes, dx = " + format_exact(dx) + ", length = " +
           format_exact(length[0]);
  std::string counts, extent;
  for (int a = 0; a < dims; ++a) {
    counts += std::string(a > 0 ? " x " : "") + std::to_string(nodes[a]);
    extent += std::string(a > 0 ? " x " : "") + "[0, " + format_exact(length[a]) + "]";
  }
  return counts + " = " + std::to_string(node_count()) + " nodes, dx = " + format_exact(dx) +
         ", " + extent;
}

}  // namespace fhn
