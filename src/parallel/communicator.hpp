#pragma once
// The processes of one run (MPI ranks) and the host-memory traffic between them. A plain
// `fhn run` is one process: the serial communicator, no MPI involved. Under `mpirun -np P` the
// MPI backend (parallel/mpi/mpi_communicator.cpp) connects the P ranks; a build without MPI has
// the same entry point, which refuses a multi-rank start with what to do (mpi_unavailable.cpp).
//
// Every collective here must be called by all ranks in the same order; point-to-point exchanges
// name their partner (kNoRank: none, e.g. at the end of the chain of slabs).
#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fhn {

constexpr int kNoRank = -1;

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Rank among the processes on this machine, and how many there are: rank r takes GPU
  // local_rank() mod (GPUs on the machine).
  virtual int local_rank() const = 0;
  virtual int local_size() const = 0;
  // "one process" or "MPI (Open MPI v4.1.4), 2 ranks on 1 host"
  virtual std::string describe() const = 0;
  bool root() const { return rank() == 0; }

  // ---- Collectives ----
  virtual index_t min(index_t value) = 0;  // over all ranks
  virtual double max(double value) = 0;
  virtual double sum(double value) = 0;
  bool any(bool value) { return max(value ? 1.0 : 0.0) > 0.0; }
  // Element by element over all ranks, in place (the same size on every rank). A value that is
  // not finite counts as +infinity: a NaN on one rank is not lost in the maximum (NaN has no
  // order), and one rank gives what several do.
  void max(std::vector<real>& values);
  // Every rank ends with `from`'s text / values.
  virtual void broadcast(std::string& text, int from) = 0;
  // The root gets every rank's values, in rank order (concatenated); the other ranks get
  // nothing.
  virtual std::vector<real> gather(const std::vector<real>& local) = 0;
  virtual std::vector<std::string> gather(const std::string& local) = 0;
  // The root's `all` split into consecutive pieces of counts[r] values, piece r to rank r
  // (counts and `all` are read on the root only).
  virtual std::vector<real> scatter(const std::vector<real>& all,
                                    const std::vector<std::size_t>& counts) = 0;

  // Every rank sends send_counts[s] consecutive values of `send` to rank s and receives
  // receive_counts[r] values from rank r, stored in rank order in `receive` (a transpose).
  virtual void all_to_all(const std::vector<real>& send, const std::vector<std::size_t>& send_counts,
                          std::vector<real>& receive,
                          const std::vector<std::size_t>& receive_counts) = 0;

  // ---- Point to point ----
  // Sends `send_count` values to rank `to` while receiving `receive_count` values from rank
  // `from` (either kNoRank: that half is skipped). Returns when both are done.
  virtual void send_receive(const real* send, std::size_t send_count, int to, real* receive,
                            std::size_t receive_count, int from) = 0;

  // Ends every rank of the run with exit code `code` (after a failure on this rank that the
  // others cannot know of: they would wait forever in the next collective).
  [[noreturn]] virtual void abort(int code) = 0;

 protected:
  // The element-wise maximum over all ranks of values none of which is NaN (max() above).
  virtual void max_ordered(std::vector<real>& values) = 0;
};

// The one-process communicator: collectives are the identity, there is nobody to exchange with.
std::unique_ptr<Communicator> make_serial_communicator();

// The world of this process: the MPI backend when started by mpirun (or another MPI launcher)
// with more than one rank, else the serial one. A build without MPI started with several ranks
// throws ConfigError saying what it lacks. Call once per process (MPI is initialised here and
// finalised when the communicator is destroyed).
std::unique_ptr<Communicator> make_world_communicator();

// For an error met by this rank alone while the others go on (they would wait for it in their
// next collective, forever): prints it as the command line would, "fhn: error: rank r of P: ...;
// stopping every rank", and ends every rank with its exit code (Communicator::abort).
[[noreturn]] void stop_every_rank(Communicator& comm, const std::exception_ptr& error);

// The rank count the launcher announced in the environment (OMPI_COMM_WORLD_SIZE, PMI_SIZE,
// PMIX_SIZE...), 1 when started without one.
int launcher_ranks();

}  // namespace fhn
