#include "parallel/communicator.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <iostream>
#include <new>

#include "core/error.hpp"

namespace fhn {
namespace {

class SerialCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int local_size() const override { return 1; }
  std::string describe() const override { return "one process"; }

  index_t min(index_t value) override { return value; }
  double max(double value) override { return value; }
  double sum(double value) override { return value; }
  void max_ordered(std::vector<real>&) override {}
  void broadcast(std::string&, int) override {}
  std::vector<real> gather(const std::vector<real>& local) override { return local; }
  std::vector<std::string> gather(const std::string& local) override { return {local}; }
  std::vector<real> scatter(const std::vector<real>& all,
                            const std::vector<std::size_t>&) override {
    return all;
  }
  void all_to_all(const std::vector<real>& send, const std::vector<std::size_t>&,
                  std::vector<real>& receive, const std::vector<std::size_t>&) override {
    receive = send;
  }
  void send_receive(const real*, std::size_t, int to, real*, std::size_t, int from) override {
    FHN_VERIFY(to == kNoRank && from == kNoRank, InternalError,
               "a one-process run has no rank to exchange with");
  }
  [[noreturn]] void abort(int code) override { std::exit(code); }
};

}  // namespace

void Communicator::max(std::vector<real>& values) {
  for (real& value : values)
    if (!std::isfinite(value)) value = std::numeric_limits<real>::infinity();
  max_ordered(values);
}

std::unique_ptr<Communicator> make_serial_communicator() {
  return std::make_unique<SerialCommunicator>();
}

void stop_every_rank(Communicator& comm, const std::exception_ptr& error) {
  int code = static_cast<int>(ExitCode::internal);
  std::string what = "unknown error";
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    code = static_cast<int>(e.code());
    what = e.what();
  } catch (const std::bad_alloc&) {
    what = "out of host memory";
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  std::cerr << "fhn: error: rank " << comm.rank() << " of " << comm.size() << ": " << what
            << "; stopping every rank" << std::endl;
  comm.abort(code);  // [[noreturn]], but a virtual call: the compiler cannot see it
  std::_Exit(code);
}

int launcher_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"}) {
    const char* value = std::getenv(name);
    if (value && *value) {
      const int ranks = std::atoi(value);
      if (ranks > 0) return ranks;
    }
  }
  return 1;
}

}  // namespace fhn
