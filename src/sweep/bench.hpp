#pragma once
// Internal to src/sweep/: `fhn sweep --bench` (bench.cpp), the sweep against its members run one
// after another.
#include <filesystem>
#include <ostream>

#include "io/json.hpp"
#include "sweep/plan.hpp"
#include "sweep/write.hpp"

namespace fhn::sweep_detail {

// Runs the first `members` members one after another, without frames, under dir/bench/<m>/:
// with run_simulation inside this process and as an `fhn run` process each (IoError when one
// fails); returns summary.json's "bench" and writes each comparison's line to run.log and `out`.
JsonObject bench_sequential_members(const SweepPlan& plan, index_t members,
                                    const std::filesystem::path& dir, double sweep_wall_seconds,
                                    SweepLog& log, std::ostream& out);

}  // namespace fhn::sweep_detail
