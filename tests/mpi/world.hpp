#pragma once
// The communicator of the MPI test executables (started by ctest under mpirun -np 2), and what
// their cases share. Every test case runs on every rank, in the same order, and makes the same
// collective calls.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parallel/communicator.hpp"
#include "support.hpp"

namespace fhn::test {

Communicator& world();

// What this test executable needs and some rank lacks ("" when every rank has it), decided by all
// ranks together before any case runs; main() then exits with 77 (skipped). Defined by
// requirements_none.cpp (the CPU cases need nothing) or gpu_world.cpp (every rank needs a CUDA
// device, and takes its own with use_rank_device). Collective.
std::string missing_requirement(Communicator& comm);

// A folder every rank sees at the same path: a temporary folder of the root's (removed with this
// object), its path broadcast to the other ranks, which create nothing. Collective.
class SharedFolder {
 public:
  SharedFolder();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::optional<TempDir> own_;
  std::filesystem::path path_;
};

// Checks that `slab` is this rank's slab of the world ("slab r+1 of n" in its name) and that the
// ranks' slabs hold `nodes` nodes together (the domain's, each once). Collective.
void check_slab_share(const Scheme& slab, index_t nodes);

// The arrays of the checkpoint that run `run` wrote at `step` into `dir`/checkpoints, by name.
std::map<std::string, std::vector<real>> checkpoint_arrays(const std::filesystem::path& dir,
                                                           const std::string& run, index_t step);

}  // namespace fhn::test
