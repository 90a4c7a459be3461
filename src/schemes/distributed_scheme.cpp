#include "schemes/distributed_scheme.hpp"

#include <limits>
#include <numeric>
#include <utility>

#include "core/error.hpp"
#include "parallel/decomposition.hpp"

namespace fhn {

DistributedScheme::DistributedScheme(const Domain& domain, Communicator& comm,
                                     std::unique_ptr<Scheme> part)
    : comm_(comm),
      domain_(domain),
      counts_(owned_node_counts(domain, comm.size())),
      offset_(static_cast<index_t>(std::accumulate(
          counts_.begin(), counts_.begin() + comm.rank(), std::size_t{0}))),
      part_(std::move(part)) {}

// "<rank 0's scheme>; 2 ranks, slabs of 201 and 200 y rows".
std::string DistributedScheme::name() const {
  const index_t plane = domain_.stride(domain_.dims - 1);
  const index_t most = static_cast<index_t>(counts_.front()) / plane;
  const index_t least = static_cast<index_t>(counts_.back()) / plane;
  return part_->name() + "; " + std::to_string(comm_.size()) + " ranks, slabs of " +
         std::to_string(most) + (least == most ? "" : " and " + std::to_string(least)) + " " +
         axis_name(domain_.dims - 1) + " planes";
}

void DistributedScheme::snapshot(Snapshot& out) const {
  Snapshot mine;
  part_->snapshot(mine);
  out.step = mine.step;
  out.t = mine.t;
  out.domain = domain_;
  out.nodes.clear();
  out.v = comm_.gather(mine.v);
  out.w = comm_.gather(mine.w);
  out.activation_first = mine.activation_first.empty() ? std::vector<real>()
                                                       : comm_.gather(mine.activation_first);
  out.activation_last = mine.activation_last.empty() ? std::vector<real>()
                                                     : comm_.gather(mine.activation_last);
}

// Each rank reads the nodes it owns from its part and puts the lowest double at the others; the
// element-wise maximum over the ranks then holds each node's value, bit for bit (max(x, lowest)
// is x, -0 included). The loop checks the state is finite before a probe reads it, so no value
// reaches Communicator::max as NaN or infinity (which it would read as +infinity).
void DistributedScheme::read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                                   std::vector<real>& w) const {
  const auto owned = static_cast<index_t>(counts_[static_cast<std::size_t>(comm_.rank())]);
  std::vector<index_t> mine;
  for (index_t node : nodes)
    if (node >= offset_ && node < offset_ + owned) mine.push_back(node - offset_);
  std::vector<real> part_v, part_w;
  part_->read_nodes(mine, part_v, part_w);
  const std::size_t n = nodes.size();
  std::vector<real> both(2 * n, std::numeric_limits<real>::lowest());
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (nodes[i] >= offset_ && nodes[i] < offset_ + owned) {
      both[i] = part_v[k];
      both[n + i] = part_w[k];
      ++k;
    }
  comm_.max(both);
  v.assign(both.begin(), both.begin() + static_cast<std::ptrdiff_t>(n));
  w.assign(both.begin() + static_cast<std::ptrdiff_t>(n), both.end());
}

index_t DistributedScheme::first_non_finite() const {
  const index_t local = part_->first_non_finite();
  constexpr index_t none = std::numeric_limits<index_t>::max();
  const index_t first = comm_.min(local < 0 ? none : offset_ + local);
  return first == none ? -1 : first;
}

SchemeState DistributedScheme::save_state() const {
  const SchemeState mine = part_->save_state();
  SchemeState all;
  all.step = mine.step;
  for (const auto& [name, values] : mine.arrays) all.add(name, comm_.gather(values));
  return all;
}

// The root announces the step and hands every rank its owned part of each of the scheme's
// arrays (a checkpoint also holds the writers' state, which stays on the root). The activation
// times are the one part a checkpoint may lack (recording switched on at the restart): the
// root says which it holds, and the ranks start those afresh (ActivationRecord::restore).
void DistributedScheme::restore_state(const SchemeState& state) {
  std::string step = comm_.root() ? std::to_string(state.step) : std::string();
  comm_.broadcast(step, 0);
  SchemeState mine;
  mine.step = std::stoll(step);
  const std::vector<real> none;
  for (const auto& entry : part_->save_state().arrays) {  // the names, the same on every rank
    const std::string& name = entry.first;
    const std::vector<real>* given = comm_.root() ? state.find(name) : nullptr;
    std::string held =
        !comm_.root() || name.rfind("activation.", 0) != 0 || (given && !given->empty()) ? "yes"
                                                                                          : "no";
    comm_.broadcast(held, 0);
    if (held == "no") continue;
    const std::vector<real>& global =
        comm_.root() ? state.get(name, static_cast<std::size_t>(domain_.node_count())) : none;
    mine.add(name, comm_.scatter(global, counts_));
  }
  part_->restore_state(mine);
}

}  // namespace fhn
