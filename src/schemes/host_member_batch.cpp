#include "schemes/host_member_batch.hpp"

#include <omp.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/first_error.hpp"
#include "core/format.hpp"

namespace fhn {

HostMemberBatch::HostMemberBatch(const std::vector<Problem>& problems, const SchemeSpec& spec,
                                 int threads)
    : threads_(threads > 0 ? threads : omp_get_max_threads()), frozen_(problems.size(), 0) {
  schemes_.resize(problems.size());
  for (std::size_t m = 0; m < problems.size(); ++m) schemes_[m] = make_scheme(problems[m], spec);
}

std::string HostMemberBatch::name() const {
  return (schemes_.empty() ? std::string("no scheme") : schemes_[0]->name()) + ", " +
         std::to_string(members()) + " members over " + std::to_string(threads_) + " threads";
}

// Members in parallel, each exactly as fhn run advances it. A member whose step throws a
// NumericalError (Newton did not converge) keeps its last accepted state and is frozen; any
// other exception stops the batch once the loop is over (first_error.hpp).
void HostMemberBatch::advance(index_t steps) {
  const auto count = static_cast<std::ptrdiff_t>(schemes_.size());
  std::vector<MemberFailure> found;
  FirstError failed;
#pragma omp parallel for schedule(dynamic) num_threads(threads_)
  for (std::ptrdiff_t m = 0; m < count; ++m) {
    if (frozen_[m]) continue;
    Scheme& scheme = *schemes_[m];
    failed.guard(m, [&] {
      try {
        scheme.advance(steps);
      } catch (const NumericalError& e) {
        frozen_[m] = 1;
#pragma omp critical(fhn_member_failures)
        found.push_back({static_cast<index_t>(m), scheme.steps_done(), e.what()});
      }
    });
  }
  failed.rethrow();
  failures_.insert(failures_.end(), found.begin(), found.end());
  step_ += steps;
}

void HostMemberBatch::sample(const std::vector<index_t>& nodes, std::vector<real>& out) {
  const auto count = static_cast<std::ptrdiff_t>(schemes_.size());
  const std::size_t width = nodes.size();
  out.resize(schemes_.size() * width);
#pragma omp parallel num_threads(threads_)
  {
    Snapshot snap;  // one per thread, reused
#pragma omp for schedule(static)
    for (std::ptrdiff_t m = 0; m < count; ++m) {
      schemes_[m]->snapshot(snap);
      for (std::size_t p = 0; p < width; ++p) out[m * width + p] = snap.v.at(nodes[p]);
    }
  }
}

void HostMemberBatch::check_finite() {
  const auto count = static_cast<std::ptrdiff_t>(schemes_.size());
  std::vector<index_t> bad(schemes_.size(), -1);
#pragma omp parallel for schedule(static) num_threads(threads_)
  for (std::ptrdiff_t m = 0; m < count; ++m)
    if (!frozen_[m]) bad[m] = schemes_[m]->first_non_finite();
  for (std::size_t m = 0; m < schemes_.size(); ++m) {
    if (bad[m] < 0) continue;
    Snapshot snap;
    schemes_[m]->snapshot(snap);
    const auto i = static_cast<std::size_t>(bad[m]);
    frozen_[m] = 1;
    failures_.push_back({static_cast<index_t>(m), snap.step,
                         "the solution stopped being finite: v = " + format_exact(snap.v[i]) +
                             ", w = " + format_exact(snap.w[i]) + " at " +
                             snap.domain.describe_node(bad[m]) + " by t = " + format_exact(snap.t) +
                             " (step " + std::to_string(snap.step) + ")"});
  }
}

std::vector<MemberFailure> HostMemberBatch::take_failures() {
  std::vector<MemberFailure> out;
  out.swap(failures_);
  std::sort(out.begin(), out.end(),
            [](const MemberFailure& a, const MemberFailure& b) { return a.member < b.member; });
  return out;
}

}  // namespace fhn
