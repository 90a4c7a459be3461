#pragma once
// The record of one Newton iteration and the interface that receives each one (newton.csv,
// io/newton_csv.hpp; the tests). The schemes that iterate fill them (schemes/newton.hpp): plain
// numbers, below both (docs/ARCHITECTURE.md section 2).
#include "core/types.hpp"

namespace fhn {

struct NewtonIteration {
  index_t step = 0;       // the step being solved: from t = step dt to (step + 1) dt
  index_t iteration = 0;  // 1, 2, ...
  real du_inf = 0.0;      // ||du||_inf of this iteration's update
  real residual_inf = 0.0;  // ||F(u)||_inf before the update
  int stage = 0;  // which Newton solve of the step (ADI: 0 = first reaction half-step, 1 = second)
};

class NewtonLog {
 public:
  virtual ~NewtonLog() = default;
  virtual void record(const NewtonIteration& iteration) = 0;
};

}  // namespace fhn
