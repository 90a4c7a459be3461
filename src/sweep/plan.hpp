#pragma once
// Internal to src/sweep/: the plan of a sweep (plan.cpp), what run_sweep (sweep.cpp) runs and
// the writers (write.cpp) and --bench (bench.cpp) read.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "parallel/decomposition.hpp"
#include "schemes/member_batch.hpp"
#include "sweep/sweep.hpp"

namespace fhn::sweep_detail {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Where a probe at x is read: v(x) = (1 - f) v_i + f v_{i+1} on the uniform grid.
struct ProbeNodes {
  index_t i = 0;
  real f = 0.0;
};

// What every rank knows before the first step: the members' configs and how they are measured.
struct SweepPlan {
  std::vector<Config> configs;    // every member's, in member order (configs[0]: member 0)
  index_t count = 0;              // members
  std::vector<real> probes;       // the probes' x (measure.probes, else at 1/4 and 3/4)
  std::vector<ProbeNodes> where;  // where each probe is read
  index_t total_steps = 0;
  index_t sample_every = 0;       // steps between samples of the probes
  index_t check_every = 0;        // steps between checks for non-finite values (as fhn run)
  bool newton = false;            // Crank-Nicolson: sweep.csv has the Newton columns
  // Sheets: no probes; each member's spiral tips are found every output.every (sample_every),
  // as fhn run finds them in its frames.
  bool sheet = false;
  bool planar = false;            // sheets: each member's planar pulse too (sweep/planar.hpp)
  Range mine;                     // this rank's members
};

// Where each probe at x of `probes` is read on the cable of `c`.
std::vector<ProbeNodes> probe_nodes(const std::vector<real>& probes, const Config& c);

// v at the probes `where` of every member of `batch` (a cable's; `sampled`: scratch), linear
// between the two nodes of each, given to `take(k, v)` member by member (one value per probe).
void sample_probes(MemberBatch& batch, const std::vector<ProbeNodes>& where,
                   std::vector<real>& sampled,
                   const std::function<void(index_t, const real*)>& take);

// Collective: refuses (ConfigError, on every rank) a sweep the root cannot hold or whose
// members' configs are invalid or disagree (sweep_member_configs), then plans it.
SweepPlan plan_sweep(const SweepConfig& sweep, const SweepOptions& options, Communicator& comm);

// "member 3 (model.a=0.05)": member m and its axis assignments, for messages.
std::string member_label(const SweepConfig& sweep, index_t m);

// E: the stimulus pulses a member receives before time.end (stimuli of amplitude 0 are off).
index_t stimulus_pulses(const Config& c);

// Members per batch: the sweep's batch key, else as many as fit in 70% of the memory of this
// rank's GPU `device` (cuda; shared evenly by the ranks of this machine that use it) or in 4 GB
// of host memory (cpu). `why` says which, for run.log.
index_t members_per_batch(const SweepConfig& sweep, const Config& c, index_t members, int device,
                          const Communicator& comm, std::string& why);

}  // namespace fhn::sweep_detail
