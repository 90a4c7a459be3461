#pragma once
// Checked cuSPARSE calls: a failure throws fhn::DeviceError naming the call, the file, the line
// and cuSPARSE's own description of the status. Only CUDA translation units include this.
#include <cusparse.h>

#include <string>

#include "core/error.hpp"

namespace fhn::cuda {

[[noreturn]] inline void throw_cusparse_error(cusparseStatus_t status, const char* call,
                                              const char* file, int line) {
  throw DeviceError(std::string("cuSPARSE call ") + call + " failed at " + file + ":" +
                    std::to_string(line) + ": " + cusparseGetErrorName(status) + " (" +
                    cusparseGetErrorString(status) + ")");
}

}  // namespace fhn::cuda

#define FHN_CUSPARSE_CHECK(call)                                                   \
  do {                                                                             \
    const cusparseStatus_t fhn_status_ = (call);                                   \
    if (fhn_status_ != CUSPARSE_STATUS_SUCCESS)                                    \
      ::fhn::cuda::throw_cusparse_error(fhn_status_, #call, __FILE__, __LINE__);   \
  } while (0)
