#pragma once
// Crank-Nicolson by operator splitting on the CPU (scheme.crank_nicolson.formulation: adi):
// Strang splitting of reaction and diffusion, the diffusion by Crank-Nicolson on a cable and by
// Peaceman-Rachford ADI on a sheet and Douglas ADI on a box: each step is two reaction half-steps
// (a scalar Newton iteration per node) and one (cable), two (sheet: the rows along x, then the
// columns along y) or three (box: x, y, z) batched tridiagonal solves with constant matrices,
// factored once. Maths in adi_point.hpp.
// A sheet also runs as one rank's slab of rows, a box as one of z planes: the lines along the
// other axes are the slab's own, those along the slab axis (a sheet's columns, a box's z lines)
// cross the slabs and are solved after a transpose (all-to-all), each rank then holding whole
// lines. On a sheet with a tissue mask or D per node (one process), every node
// has its own row in its lines' matrices (adi_setup.hpp) and the kinetics parameters at the node.
#include <memory>
#include <utility>

#include "parallel/halo_exchange.hpp"
#include "schemes/adi_setup.hpp"
#include "schemes/host_scheme.hpp"

namespace fhn {

class AdiCpu final : public HostScheme {
 public:
  AdiCpu(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log);
  // Rank comm.rank()'s slab of a sheet or a box (make_slab_scheme); `log` on the root only.
  AdiCpu(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log, Communicator& comm);

  std::string name() const override;
  const NewtonStats* newton_stats() const override { return &stats_; }

 private:
  void step() override;
  // One reaction half-step of every node (`current`: the stimuli's mean over it, nullptr: none).
  void react(const real* current, int stage);
  void hold(std::vector<real>& u) const;
  void set_up_nodes();
  // The diffusion step of a sheet with a tissue mask or D per node (one process).
  void diffuse_medium();
  // The diffusion step of a box (one process or a slab of z planes): Douglas's three solves.
  void diffuse_box();
  // The solves along the slab axis of a slab's owned planes (`owned`, plane-major): transpose,
  // solve whole lines, transpose back.
  void solve_lines_across_ranks(real* owned);

  CrankNicolsonSpec spec_;
  NewtonLog* log_;
  AdiSetup setup_;
  AdiSolvers solvers_;
  std::vector<std::pair<index_t, real>> held_;  // (node, v) of every Dirichlet node
  NewtonStats stats_;
  std::vector<real> rhs_;
  std::vector<real> current_[2];  // I's means over [t, t + k/2], [t + k/2, t + k] (empty: none)
  // A slab's: its communicator and halo exchange (nullptr on the whole domain), every rank's
  // share of the lines along the slab axis, and the transpose's buffers.
  Communicator* comm_ = nullptr;
  std::unique_ptr<HaloExchange> halo_;
  std::vector<Range> lines_;
  std::vector<std::size_t> to_, from_;  // the transpose's counts per rank (sent, received)
  std::vector<real> send_, transposed_, received_;
};

}  // namespace fhn
