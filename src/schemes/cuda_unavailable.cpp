// A build without CUDA: scheme.backend: cuda is not compiled, and the factory says so.
#include "core/error.hpp"
#include "schemes/cuda_schemes.hpp"

namespace fhn {
namespace {

[[noreturn]] void not_compiled() {
  throw DeviceError(
      "scheme.backend: cuda is not compiled into this build; rebuild with -DFHN_WITH_CUDA=ON "
      "(needs the CUDA Toolkit), or use scheme.backend: cpu");
}

}  // namespace

std::unique_ptr<Scheme> make_cuda_scheme(const Problem&, const SchemeSpec&, NewtonLog*) {
  not_compiled();
}

std::unique_ptr<Scheme> make_cuda_slab_scheme(const Problem&, const SchemeSpec&, Communicator&,
                                              NewtonLog*) {
  not_compiled();
}

std::unique_ptr<MemberBatch> make_cuda_member_batch(const std::vector<Problem>&,
                                                    const SchemeSpec&) {
  not_compiled();
}

}  // namespace fhn
