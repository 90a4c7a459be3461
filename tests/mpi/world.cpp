#include "tests/mpi/world.hpp"

#include <doctest/doctest.h>

#include "run/checkpoint.hpp"

namespace fhn::test {

SharedFolder::SharedFolder() {
  Communicator& comm = world();
  if (comm.root()) own_.emplace();
  std::string path = comm.root() ? own_->path().string() : std::string();
  comm.broadcast(path, 0);
  path_ = path;
}

void check_slab_share(const Scheme& slab, index_t nodes) {
  Communicator& comm = world();
  CHECK(contains(slab.name(), "slab " + std::to_string(comm.rank() + 1) + " of " +
                                  std::to_string(comm.size())));
  CHECK(comm.sum(static_cast<double>(slab.node_count())) == static_cast<double>(nodes));
}

std::map<std::string, std::vector<real>> checkpoint_arrays(const std::filesystem::path& dir,
                                                           const std::string& run, index_t step) {
  const Checkpoint c = read_checkpoint(checkpoint_path(dir, run, step));
  return {c.state.arrays.begin(), c.state.arrays.end()};
}

}  // namespace fhn::test
