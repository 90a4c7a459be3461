#pragma once
// `fhn bench`: measures, in one run, the kernels a simulation spends its time in (a tridiagonal
// solve, an explicit step, a Newton iteration) against the baselines that say how good they are:
// the copy bandwidth (the roofline of a memory-bound kernel), cuSPARSE's gtsv2 and LAPACK's
// dgtsv measured in the same run. Every variant's result is checked before it is timed.
#include <algorithm>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "kinetics/kinetics.hpp"

namespace fhn::bench {

// The kinds of rows `fhn bench` measures (BenchRow::kernel), as --only names them.
inline const std::vector<std::string>& bench_kinds() {
  static const std::vector<std::string> kinds{
      "copy",         "tridiagonal",      "tridiagonal+transfers", "batched tridiagonal",
      "explicit step", "newton iteration", "sheet step",            "box step",
      "sweep sheet step", "measurement"};
  return kinds;
}

struct BenchOptions {
  std::vector<index_t> sizes;  // problem sizes n (unknowns / nodes)
  int repetitions = 20;        // timed repetitions per variant and size (median reported)
  index_t cpu_max_n = index_t{1} << 24;  // CPU variants run up to this n
  bool cpu = true;
  bool gpu = true;
  std::string csv;  // write every row here when not empty
  Kinetics kinetics;  // the form of the explicit, Newton and ADI problems (default parameters)
  // The kinds of rows to measure ("sheet step", "box step", ...; BenchRow::kernel); empty: all.
  // The copy, every other row's baseline, is always measured.
  std::vector<std::string> only;
  bool wanted(const std::string& kernel) const {
    return only.empty() || kernel == "copy" ||
           std::find(only.begin(), only.end(), kernel) != only.end();
  }
};

// Median and spread of the repetitions, in milliseconds.
struct Timing {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  int repetitions = 0;
};

// Median/min/max of a list of times in ms (the list is reordered).
Timing summarize(std::vector<double>& times_ms);

// One measured variant at one size.
struct BenchRow {
  std::string kernel;    // what is computed: "copy", "tridiagonal", "tridiagonal+transfers",
                         // "explicit step", "newton iteration"
  std::string variant;   // how: "thomas", "lapack dgtsv", "partitioned", "cusparse gtsv2_nopivot"...
  std::string device;    // "cpu" or the GPU's name
  index_t n = 0;
  Timing time;           // per call (per step for multi-step kernels)
  double bytes = 0.0;    // the fewest bytes one call must move (see each kernel's byte model)
  double check = 0.0;    // max relative difference from the reference result (0 for the reference)
  std::string baseline;  // variant (same device and n; same kernel first) this row is compared with
  std::string note;      // what bounds it, or why a variant was skipped
};

// Appends the rows of each part. The GPU part is implemented in src/bench/cuda/ when CUDA is
// built; otherwise it adds nothing and says why in `why_not`.
void run_cpu_benchmarks(const BenchOptions& options, std::vector<BenchRow>& rows);
bool run_gpu_benchmarks(const BenchOptions& options, std::vector<BenchRow>& rows,
                        std::string& why_not);

// Effective bandwidth (GB/s) of a row: bytes / median time.
double gigabytes_per_second(const BenchRow& row);

// The table: time, GB/s, % of the same device's copy bandwidth at that n, and the speed-up
// baseline_time / time against the row named in `baseline`.
void print_table(std::ostream& out, const std::vector<BenchRow>& rows);
void write_csv(const std::string& path, const std::vector<BenchRow>& rows);

// `fhn bench`: runs everything, prints the table, writes the CSV; returns the exit code.
int run_bench(const BenchOptions& options, std::ostream& out);

// ---- Added to the interface above: the check threshold and the --sizes syntax -----------------

// A check above this (max relative difference from the reference) marks the row FAILED and
// makes `fhn bench` exit with code 3. The solvers' results are about 1e-15 off. The inputs and
// the relative error are in bench_data.hpp.
constexpr double kCheckTolerance = 1e-8;
bool check_failed(const BenchRow& row);

// The sizes `fhn bench` runs by default: 2^10, 2^12, ..., 2^26.
std::vector<index_t> default_sizes();

// The largest n `fhn bench` accepts (2^28).
constexpr index_t kMaxBenchSize = index_t{1} << 28;

// Parses one --sizes item and appends its sizes: "4096", "2^12", or "2^10..2^20" (every power
// of two from the first to the last). Returns "" when it is valid, else what is wrong with it.
std::string parse_sizes(const std::string& text, std::vector<index_t>& sizes);

}  // namespace fhn::bench
