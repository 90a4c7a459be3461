#include "tests/mpi/world.hpp"

#include "run/checkpoint.hpp"

namespace fhn::test {

SharedFolder::SharedFolder() {
  Communicator& comm = world();
  if (comm.root()) own_.emplace();
  std::string path = comm.root() ? own_->path().string() : std::string();
  comm.broadcast(path, 0);
  path_ = path;
}

std::map<std::string, std::vector<real>> checkpoint_arrays(const std::filesystem::path& dir,
                                                           const std::string& run, index_t step) {
  const Checkpoint c = read_checkpoint(checkpoint_path(dir, run, step));
  return {c.state.arrays.begin(), c.state.arrays.end()};
}

}  // namespace fhn::test
