// The MPI backend of Communicator: MPI_COMM_WORLD of the ranks mpirun started. MPI is initialised
// only when a launcher announced more than one rank; a plain `fhn run` stays a single process
// that never touches MPI.
#include <mpi.h>

#include <climits>
#include <cstdlib>

#include "core/build_info.hpp"
#include "core/error.hpp"
#include "parallel/communicator.hpp"

namespace fhn {
namespace {

void check(int status, const char* what) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw InternalError(std::string("MPI: ") + what + " failed: " + std::string(text, length));
}

// MPI counts are ints: a piece of more than 2^31 - 1 values has to be split by the caller.
int count_of(std::size_t count, const char* what) {
  FHN_VERIFY(count <= static_cast<std::size_t>(INT_MAX), InternalError,
             std::string("MPI: ") + what + " of " + std::to_string(count) +
                 " values exceeds MPI's int count");
  return static_cast<int>(count);
}

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    int provided = 0;
    // Only the main thread calls MPI (OpenMP threads compute, they do not communicate).
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local_),
          "MPI_Comm_split_type");
    MPI_Comm_rank(local_, &local_rank_);
    MPI_Comm_size(local_, &local_size_);
    int host_root = local_rank_ == 0 ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &host_root, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    hosts_ = host_root;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    library_ = std::string(version, static_cast<std::size_t>(length));
    library_ = library_.substr(0, library_.find_first_of(",\n"));
  }
  ~MpiCommunicator() override {
    MPI_Comm_free(&local_);
    MPI_Finalize();
  }
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  std::string describe() const override {
    return "MPI (" + library_ + "), " + std::to_string(size_) + " ranks on " +
           std::to_string(hosts_) + (hosts_ == 1 ? " host" : " hosts");
  }

  index_t min(index_t value) override {
    long long v = value;
    check(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD),
          "MPI_Allreduce");
    return static_cast<index_t>(v);
  }
  double max(double value) override { return reduce(value, MPI_MAX); }
  double sum(double value) override { return reduce(value, MPI_SUM); }
  void max_ordered(std::vector<real>& values) override {
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), count_of(values.size(), "a reduction"),
                        MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
          "MPI_Allreduce");
  }

  void broadcast(std::string& text, int from) override {
    long long length = static_cast<long long>(text.size());
    check(MPI_Bcast(&length, 1, MPI_LONG_LONG, from, MPI_COMM_WORLD), "MPI_Bcast");
    text.resize(static_cast<std::size_t>(length));
    check(MPI_Bcast(text.data(), count_of(text.size(), "a broadcast"), MPI_CHAR, from,
                    MPI_COMM_WORLD),
          "MPI_Bcast");
  }

  std::vector<real> gather(const std::vector<real>& local) override {
    std::vector<int> counts, offsets;
    const std::size_t total = gather_counts(local.size(), counts, offsets);
    std::vector<real> all(root() ? total : 0);
    check(MPI_Gatherv(local.data(), count_of(local.size(), "a gather"), MPI_DOUBLE, all.data(),
                      counts.data(), offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    return all;
  }

  std::vector<std::string> gather(const std::string& local) override {
    std::vector<int> counts, offsets;
    const std::size_t total = gather_counts(local.size(), counts, offsets);
    std::string all(root() ? total : 0, '\0');
    check(MPI_Gatherv(local.data(), count_of(local.size(), "a gather"), MPI_CHAR, all.data(),
                      counts.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    std::vector<std::string> pieces;
    if (root())
      for (int r = 0; r < size_; ++r)
        pieces.push_back(all.substr(static_cast<std::size_t>(offsets[r]),
                                    static_cast<std::size_t>(counts[r])));
    return pieces;
  }

  std::vector<real> scatter(const std::vector<real>& all,
                            const std::vector<std::size_t>& counts) override {
    std::vector<int> send_counts, offsets;
    if (root()) {
      FHN_VERIFY(counts.size() == static_cast<std::size_t>(size_), InternalError,
                 "MPI scatter: one count per rank needed");
      std::size_t offset = 0;
      for (std::size_t count : counts) {
        send_counts.push_back(count_of(count, "a scatter"));
        offsets.push_back(count_of(offset, "a scatter"));
        offset += count;
      }
      FHN_VERIFY(offset == all.size(), InternalError,
                 "MPI scatter: the counts do not add up to the values");
    }
    int mine = 0;
    check(MPI_Scatter(send_counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD),
          "MPI_Scatter");
    std::vector<real> local(static_cast<std::size_t>(mine));
    check(MPI_Scatterv(all.data(), send_counts.data(), offsets.data(), MPI_DOUBLE, local.data(),
                       mine, MPI_DOUBLE, 0, MPI_COMM_WORLD),
          "MPI_Scatterv");
    return local;
  }

  void all_to_all(const std::vector<real>& send, const std::vector<std::size_t>& send_counts,
                  std::vector<real>& receive,
                  const std::vector<std::size_t>& receive_counts) override {
    std::vector<int> sc, so, rc, ro;
    std::size_t sent = 0, received = 0;
    for (int r = 0; r < size_; ++r) {
      const auto k = static_cast<std::size_t>(r);
      sc.push_back(count_of(send_counts[k], "an all-to-all"));
      so.push_back(count_of(sent, "an all-to-all"));
      rc.push_back(count_of(receive_counts[k], "an all-to-all"));
      ro.push_back(count_of(received, "an all-to-all"));
      sent += send_counts[k];
      received += receive_counts[k];
    }
    receive.resize(received);
    check(MPI_Alltoallv(send.data(), sc.data(), so.data(), MPI_DOUBLE, receive.data(), rc.data(),
                        ro.data(), MPI_DOUBLE, MPI_COMM_WORLD),
          "MPI_Alltoallv");
  }

  void send_receive(const real* send, std::size_t send_count, int to, real* receive,
                    std::size_t receive_count, int from) override {
    check(MPI_Sendrecv(send, count_of(send_count, "a send"), MPI_DOUBLE,
                       to == kNoRank ? MPI_PROC_NULL : to, 0, receive,
                       count_of(receive_count, "a receive"), MPI_DOUBLE,
                       from == kNoRank ? MPI_PROC_NULL : from, 0, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  }

  [[noreturn]] void abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
  }

 private:
  double reduce(double value, MPI_Op op) {
    check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, op, MPI_COMM_WORLD), "MPI_Allreduce");
    return value;
  }
  // Every rank's count on the root (with offsets); returns the total there, 0 elsewhere.
  std::size_t gather_counts(std::size_t local, std::vector<int>& counts, std::vector<int>& offsets) {
    int mine = count_of(local, "a gather");
    counts.assign(root() ? static_cast<std::size_t>(size_) : 0, 0);
    check(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD),
          "MPI_Gather");
    std::size_t total = 0;
    offsets.clear();
    for (int count : counts) {
      offsets.push_back(count_of(total, "a gather"));
      total += static_cast<std::size_t>(count);
    }
    return total;
  }

  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1, hosts_ = 1;
  MPI_Comm local_ = MPI_COMM_NULL;
  std::string library_;
};

}  // namespace

bool mpi_compiled() { return true; }

std::unique_ptr<Communicator> make_world_communicator() {
  if (launcher_ranks() <= 1) return make_serial_communicator();
  return std::make_unique<MpiCommunicator>();
}

}  // namespace fhn
