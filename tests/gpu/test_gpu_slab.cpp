// The explicit sheet scheme on slabs (one rank's rows, parallel/decomposition.hpp) on the GPU.
// Ranks are emulated in one process: a slab's arrays are cut from a whole sheet's state (as a
// perfect halo exchange leaves them), the kernels run on the slab's rows, and the rows must equal
// the whole-sheet launch bit for bit: at every pass depth, slabs at the bottom, in the middle and
// at the top, no-flux and Dirichlet sides, stimuli on, odd N_x, both the plain launch over the
// owned rows and the scheme's split (inner rows from the owned arrays alone, then the two edge
// strips). Then the slab scheme of a one-rank run against the whole-sheet scheme; the slab
// schemes of 2 and 3 ranks, each a thread of this process with a communicator between threads,
// gathered, against the whole-sheet scheme (halos through host memory where the ranks share a
// GPU, by NCCL where each has its own); and what make_slab_scheme refuses on the GPU.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "config/loader.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "parallel/communicator.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"
#include "parallel/decomposition.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/cuda/explicit_sheet_kernels.cuh"
#include "schemes/cuda_schemes.hpp"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::test::bit_differences;
using fhn::test::DeviceState;

// One sheet and state, the whole-sheet launches as the reference, and slab launches to compare.
struct SlabCase : fhn::test::RandomStateCase {
  explicit SlabCase(const fhn::Config& c) : RandomStateCase(c, 20261207u) {}
  std::size_t row_offset(index_t j) const { return static_cast<std::size_t>(q.n[0] * j); }

  // The whole sheet after a blocked pass of `steps` steps (steps 0: one step of the one-step
  // kernel) from step `first`.
  std::pair<std::vector<double>, std::vector<double>> whole(index_t first, int steps) const {
    DeviceState in(v.size()), out(v.size());
    in.upload(v, w);
    out.poison();
    if (steps == 0)
      fhn::cuda::launch_explicit_sheet_step(in.v.data(), in.w.data(), out.v.data(), out.w.data(),
                                            q, problem.model.kinetics, stimuli.view(), first);
    else
      fhn::cuda::launch_explicit_sheet_steps_blocked(in.v.data(), in.w.data(), out.v.data(),
                                                     out.w.data(), q, problem.model.kinetics,
                                                     stimuli.view(), first, steps);
    return {fhn::cuda::to_host(out.v), fhn::cuda::to_host(out.w)};
  }
};

// How a slab's pass is launched: over its owned rows from the whole arrays, or split as
// ExplicitCuda does (the rows a neighbour's halo cannot reach from the owned rows alone, then
// the edge strips next to each neighbour from the whole arrays).
enum class Launch { owned_rows, split };

// Rows [first, first + count) of the slab's output must equal the whole sheet's; every other row
// of the output keeps its poison (nothing written there).
void check_slab(const SlabCase& s, const fhn::Slab& slab, index_t first_step, int steps,
                Launch how, const std::pair<std::vector<double>, std::vector<double>>& whole) {
  CAPTURE(slab.rank);
  CAPTURE(slab.ranks);
  CAPTURE(static_cast<int>(how));
  fhn::test::RandomStateCase::SlabArrays arrays = s.slab_arrays(slab);
  DeviceState &in = arrays.in, &out = arrays.out;
  const fhn::NodeParams& q = arrays.q;
  const index_t first = slab.first, end = slab.first + slab.count;
  auto launch = [&](const fhn::NodeParams& p, index_t offset, index_t j_begin, index_t j_end) {
    if (j_end <= j_begin) return;
    if (steps == 0)
      fhn::cuda::launch_explicit_sheet_step(in.v.data() + offset, in.w.data() + offset,
                                            out.v.data() + offset, out.w.data() + offset, p,
                                            s.problem.model.kinetics, s.stimuli.view(), first_step,
                                            j_begin, j_end, nullptr);
    else
      fhn::cuda::launch_explicit_sheet_steps_blocked(
          in.v.data() + offset, in.w.data() + offset, out.v.data() + offset,
          out.w.data() + offset, p, s.problem.model.kinetics, s.stimuli.view(), first_step, steps,
          j_begin, j_end, nullptr);
  };
  if (how == Launch::owned_rows) {
    launch(q, 0, first, end);
  } else {
    const index_t reach = std::max(steps, 1);
    const index_t below = slab.below() >= 0 ? reach : 0, above = slab.above() >= 0 ? reach : 0;
    fhn::NodeParams owned = q;
    owned.plane0 = first;
    owned.planes = slab.count;
    launch(owned, slab.owned_offset(), first + below, end - above);
    launch(q, 0, first, first + below);
    launch(q, 0, end - above, end);
  }
  const std::vector<double> ov = fhn::cuda::to_host(out.v), ow = fhn::cuda::to_host(out.w);
  DeviceState poison(static_cast<std::size_t>(slab.array_nodes()));
  poison.poison();
  const std::vector<double> nan = fhn::cuda::to_host(poison.v);
  const auto owned_at = static_cast<std::size_t>(slab.owned_offset());
  const auto owned_n = static_cast<std::size_t>(slab.owned_nodes());
  const std::size_t global_at = s.row_offset(first);
  CHECK(bit_differences(ov.data() + owned_at, whole.first.data() + global_at, owned_n) == 0);
  CHECK(bit_differences(ow.data() + owned_at, whole.second.data() + global_at, owned_n) == 0);
  // The halo rows are not written.
  for (const std::vector<double>* out_field : {&ov, &ow}) {
    CHECK(bit_differences(out_field->data(), nan.data(), owned_at) == 0);
    CHECK(bit_differences(out_field->data() + owned_at + owned_n, nan.data(), owned_at) == 0);
  }
}

// The ranks of a run as threads of one process: collectives meet at a barrier, point-to-point
// messages go through mailboxes (a send never waits, a receive waits for its message). What the
// slab schemes use of a Communicator; the gathers, scatter, all_to_all and the element-wise max
// are not needed here. A rank that waits
// longer than kPatience (another rank failed) throws instead of hanging the test.
constexpr std::chrono::seconds kPatience{60};

class ThreadWorld {
 public:
  explicit ThreadWorld(int size) : size_(size), slots_(static_cast<std::size_t>(size)) {}
  int size() const { return size_; }

  // Every rank's `value`, once all have given theirs.
  std::vector<double> all(int rank, double value) {
    std::vector<double> values;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      slots_[static_cast<std::size_t>(rank)] = value;
    }
    barrier();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      values = slots_;
    }
    barrier();  // nobody overwrites a slot before everyone has read it
    return values;
  }
  void barrier() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long generation = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
    } else {
      patient_wait(lock, [&] { return generation_ != generation; });
    }
  }
  void broadcast(int rank, std::string& text, int from) {
    if (rank == from) {
      std::lock_guard<std::mutex> lock(mutex_);
      text_ = text;
    }
    barrier();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      text = text_;
    }
    barrier();
  }
  void send(int from, int to, const fhn::real* values, std::size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    mail_[{from, to}].emplace_back(values, values + count);
    changed_.notify_all();
  }
  void receive(int from, int to, fhn::real* values, std::size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto& box = mail_[{from, to}];
    patient_wait(lock, [&] { return !box.empty(); });
    FHN_VERIFY(box.front().size() == count, fhn::InternalError, "message of the wrong size");
    std::copy(box.front().begin(), box.front().end(), values);
    box.erase(box.begin());
  }

 private:
  template <class Ready>
  void patient_wait(std::unique_lock<std::mutex>& lock, Ready ready) {
    FHN_VERIFY(changed_.wait_for(lock, kPatience, ready), fhn::InternalError,
               "ThreadWorld: waited too long for another rank");
  }

  int size_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int arrived_ = 0;
  long generation_ = 0;
  std::vector<double> slots_;
  std::string text_;
  std::map<std::pair<int, int>, std::vector<std::vector<fhn::real>>> mail_;  // (from, to)
};

class ThreadCommunicator final : public fhn::Communicator {
 public:
  ThreadCommunicator(ThreadWorld& world, int rank) : world_(world), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return world_.size(); }
  int local_rank() const override { return rank_; }
  int local_size() const override { return world_.size(); }
  std::string describe() const override { return "threads of one process"; }
  index_t min(index_t value) override {
    const auto v = world_.all(rank_, static_cast<double>(value));
    return static_cast<index_t>(*std::min_element(v.begin(), v.end()));
  }
  double max(double value) override {
    const auto v = world_.all(rank_, value);
    return *std::max_element(v.begin(), v.end());
  }
  void max_ordered(std::vector<fhn::real>&) override { not_needed(); }
  double sum(double value) override {
    double total = 0.0;
    for (const double x : world_.all(rank_, value)) total += x;
    return total;
  }
  void broadcast(std::string& text, int from) override { world_.broadcast(rank_, text, from); }
  std::vector<fhn::real> gather(const std::vector<fhn::real>&) override { not_needed(); }
  std::vector<std::string> gather(const std::string&) override { not_needed(); }
  std::vector<fhn::real> scatter(const std::vector<fhn::real>&,
                                 const std::vector<std::size_t>&) override {
    not_needed();
  }
  void all_to_all(const std::vector<fhn::real>&, const std::vector<std::size_t>&,
                  std::vector<fhn::real>&, const std::vector<std::size_t>&) override {
    not_needed();
  }
  void send_receive(const fhn::real* send, std::size_t send_count, int to, fhn::real* receive,
                    std::size_t receive_count, int from) override {
    if (to != fhn::kNoRank) world_.send(rank_, to, send, send_count);
    if (from != fhn::kNoRank) world_.receive(from, rank_, receive, receive_count);
  }
  [[noreturn]] void abort(int) override { std::abort(); }

 private:
  [[noreturn]] static void not_needed() {
    throw fhn::InternalError("ThreadCommunicator: not needed by the slab schemes");
  }
  ThreadWorld& world_;
  int rank_;
};

}  // namespace

TEST_CASE("Slab kernels: a slab's rows equal the whole sheet's bit for bit at every depth") {
  // Odd N_x; slabs tall enough for the inner (side-free) kernel to run in them; thin slabs.
  const int sizes[][2] = {{131, 301}, {200, 163}, {37, 61}};
  for (const auto& size : sizes)
    for (const char* sides : fhn::test::kSheetSides) {
      CAPTURE(size[0]);
      CAPTURE(size[1]);
      CAPTURE(sides);
      const SlabCase s(fhn::test::config_from(fhn::test::sheet_yaml(size[0], size[1], sides)));
      // Steps 100.. (t = 5..): the first stimulus is on, so the stimulus kernels run.
      const index_t first_step = 100;
      std::vector<double> current(s.v.size(), 0.0);
      s.problem.stimuli.currents(s.problem.time.t(first_step), 0.0,
                                 current.data());
      REQUIRE(*std::max_element(current.begin(), current.end()) > 0.5);
      // steps 0: the one-step kernel; else the blocked kernel of that depth.
      for (int steps = 0; steps <= fhn::cuda::kExplicitSheetMaxSteps; ++steps) {
        CAPTURE(steps);
        const auto whole = s.whole(first_step, steps);
        for (int ranks : {2, 3, 5}) {
          // At least the depth, and even (as the scheme's): the owned rows then start 16-byte
          // aligned for odd N_x too, as the kernels require.
          const index_t halo = (std::max(steps, 1) + 1) & ~1;
          if (size[1] / ranks < 2 * halo) continue;  // the scheme's least slab
          for (int rank = 0; rank < ranks; ++rank) {
            const fhn::Slab slab = fhn::make_slab(s.problem.domain, rank, ranks, halo, 2 * halo);
            check_slab(s, slab, first_step, steps, Launch::owned_rows, whole);
            check_slab(s, slab, first_step, steps, Launch::split, whole);
          }
        }
      }
    }
}

TEST_CASE("Slab kernels: rows outside the sheet or the arrays are refused") {
  const SlabCase s(fhn::test::config_from(fhn::test::sheet_yaml(9, 20, "{}")));
  DeviceState a(s.v.size()), b(s.v.size());
  const fhn::StimulusTable none{};
  fhn::NodeParams q = s.q;
  auto blocked = [&](const fhn::NodeParams& p, index_t j_begin, index_t j_end) {
    fhn::cuda::launch_explicit_sheet_steps_blocked(a.v.data(), a.w.data(), b.v.data(),
                                                   b.w.data(), p, s.problem.model.kinetics, none, 0,
                                                   2, j_begin, j_end, nullptr);
  };
  CHECK_THROWS_AS(blocked(q, 0, 21), fhn::InternalError);   // past the sheet
  CHECK_THROWS_AS(blocked(q, 5, 5), fhn::InternalError);    // empty
  q.plane0 = 4;
  q.planes = 10;
  CHECK_THROWS_AS(blocked(q, 3, 8), fhn::InternalError);    // below the arrays
  CHECK_THROWS_AS(blocked(q, 10, 15), fhn::InternalError);  // above them
  CHECK_NOTHROW(blocked(q, 4, 14));
  FHN_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_CASE("Slab scheme of a one-rank run equals the whole-domain scheme bit for bit") {
  // Explicit sheets (all no-flux, all Dirichlet), an ADI sheet and an ADI box: the slab's arrays
  // hold halo planes (rows) beyond each end of the domain, the ADI right sides the owned planes
  // alone.
  const auto comm = fhn::make_serial_communicator();
  std::vector<fhn::Config> configs;
  for (const char* sides : {fhn::test::kSheetSides[0], fhn::test::kSheetSides[3]})
    configs.push_back(fhn::test::config_from(fhn::test::sheet_yaml(133, 97, sides),
                                             {"scheme.backend=cuda"}));
  configs.push_back(fhn::test::config_from(fhn::test::sheet_yaml(53, 47, fhn::test::kSheetSides[2]),
                                           {"scheme.backend=cuda", "scheme.type=crank_nicolson"}));
  configs.push_back(fhn::test::config_from(
      fhn::test::box_yaml("cubic", "{type: crank_nicolson, backend: cuda}"), {"time.dt=0.05"}));
  for (const fhn::Config& c : configs) {
    const fhn::Problem problem = fhn::make_problem(c);
    auto whole = fhn::make_cuda_scheme(problem, c.scheme, nullptr);
    auto slab = fhn::make_cuda_slab_scheme(problem, c.scheme, *comm, nullptr);
    CAPTURE(slab->name());
    const std::string scheme = whole->name().substr(0, whole->name().find("(cuda, "));
    CHECK(fhn::test::contains(slab->name(), scheme));
    CHECK(fhn::test::contains(slab->name(), ", slab 1 of 1)"));
    CHECK(slab->node_count() == problem.domain.node_count());
    for (const index_t steps : {37, 1, 250}) {
      whole->advance(steps);
      slab->advance(steps);
      fhn::Snapshot a, b;
      whole->snapshot(a);
      slab->snapshot(b);
      CHECK(b.step == a.step);
      CHECK(b.v == a.v);
      CHECK(b.w == a.w);
      CHECK(b.nodes.empty());  // a slab scheme's snapshot: the owned v and w, the run's domain
      CHECK(b.coordinates(1) == a.coordinates(1));
    }
    CHECK(slab->first_non_finite() == -1);
    // A checkpoint of the slab continues bit for bit in the whole-domain scheme.
    const fhn::SchemeState saved = slab->save_state();
    whole->restore_state(saved);
    whole->advance(100);
    slab->advance(100);
    fhn::Snapshot a, b;
    whole->snapshot(a);
    slab->snapshot(b);
    CHECK(b.v == a.v);
    CHECK(b.w == a.w);
  }
}

TEST_CASE("Slab scheme: what does not run on several ranks yet is refused by name") {
  const auto comm = fhn::make_serial_communicator();
  auto refusal = [&](const std::string& yaml, const std::vector<std::string>& set) {
    const fhn::Config c = fhn::test::config_from(yaml, set);
    const fhn::Problem problem = fhn::make_problem(c);
    return fhn::test::thrown_message<fhn::ConfigError>(
        [&] { fhn::make_slab_scheme(c, problem, *comm); });
  };
  CHECK(fhn::test::contains(
      refusal("domain: {length: 20, dx: 0.5}\n",
              {"scheme.backend=cuda", "scheme.type=crank_nicolson",
               "scheme.crank_nicolson.formulation=adi"}),
      "scheme.type: crank_nicolson (formulation adi) on a cable with the cuda backend does not "
      "run on several ranks yet"));
  CHECK(fhn::test::contains(
      refusal("domain: {length: 20, dx: 0.5}\n", {"scheme.backend=cuda"}),
      "scheme.type: explicit on a cable with the cuda backend does not run on several ranks"));
}

TEST_CASE("Slab schemes of 2 and 3 ranks (threads) gathered equal the whole-sheet scheme") {
  int devices = 0;
  FHN_CUDA_CHECK(cudaGetDeviceCount(&devices));
  for (int ranks : {2, 3}) {
    CAPTURE(ranks);
    const fhn::Config c = fhn::test::config_from(
        fhn::test::sheet_yaml(101, 137, fhn::test::kSheetSides[1]), {"scheme.backend=cuda"});
    const fhn::Problem problem = fhn::make_problem(c);
    // 197 steps in pieces that are not whole passes; the first stimulus is on from step 100.
    const std::vector<index_t> pieces = {95, 4, 37, 1, 60};
    auto whole = fhn::make_cuda_scheme(problem, c.scheme, nullptr);
    for (const index_t steps : pieces) whole->advance(steps);
    fhn::Snapshot expected;
    whole->snapshot(expected);

    ThreadWorld world(ranks);
    std::vector<fhn::Snapshot> parts(static_cast<std::size_t>(ranks));
    std::vector<std::string> names(parts.size()), errors(parts.size());
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
      threads.emplace_back([&, r] {
        const auto k = static_cast<std::size_t>(r);
        try {
          ThreadCommunicator comm(world, r);
          auto scheme = fhn::make_cuda_slab_scheme(problem, c.scheme, comm, nullptr);
          names[k] = scheme->name();
          for (const index_t steps : pieces) scheme->advance(steps);
          scheme->snapshot(parts[k]);
        } catch (const std::exception& e) {
          errors[k] = e.what();  // the other ranks give up after kPatience
        }
      });
    for (auto& t : threads) t.join();
    std::vector<double> v, w;
    for (int r = 0; r < ranks; ++r) {
      const auto k = static_cast<std::size_t>(r);
      CAPTURE(r);
      REQUIRE(errors[k].empty());
      CHECK(fhn::test::contains(names[k], "slab " + std::to_string(r + 1) + " of " +
                                              std::to_string(ranks) + ", halos "));
      CHECK(fhn::test::contains(names[k], !fhn::cuda::nccl_compiled() ? "(NCCL not compiled in)"
                                          : devices >= ranks          ? "halos by NCCL"
                                                                      : "(ranks share a GPU)"));
      CHECK(parts[k].step == expected.step);
      v.insert(v.end(), parts[k].v.begin(), parts[k].v.end());
      w.insert(w.end(), parts[k].w.begin(), parts[k].w.end());
    }
    CHECK(v == expected.v);
    CHECK(w == expected.w);
  }
}

namespace {

// `count` values of a device array, on the host.
template <class T>
std::vector<T> device_values(const T* device, index_t count) {
  std::vector<T> values(static_cast<std::size_t>(count));
  FHN_CUDA_CHECK(cudaMemcpy(values.data(), device, values.size() * sizeof(T),
                            cudaMemcpyDeviceToHost));
  return values;
}

// A global per-node array as a slab's arrays hold it: its present nodes, zero elsewhere.
template <class T>
std::vector<T> slab_layout(const std::vector<T>& global, const fhn::Slab& slab) {
  std::vector<T> values(static_cast<std::size_t>(slab.array_nodes()), T{});
  const fhn::Slab::Present in = slab.present();
  std::copy_n(global.begin() + in.global_first, in.count, values.begin() + in.array_at);
  return values;
}

}  // namespace

TEST_CASE("DeviceFields: per-node parameter fields and the mask laid out like v; none if uniform") {
  fhn::Problem problem = fhn::make_problem(fhn::test::config_from(
      "name: fields\ndomain: {length: [6, 4], dx: 1}\ntime: {end: 1, dt: 0.1}\n"));
  {
    const fhn::cuda::DeviceFields uniform(problem);
    CHECK(uniform.diffusion_values() == nullptr);
    for (std::size_t p = 0; p < 4; ++p) CHECK(uniform.parameter_values(p) == nullptr);
    CHECK(uniform.node_types() == nullptr);
  }
  const std::size_t n = problem.v0.size();
  for (std::size_t i = 0; i < n; ++i) {
    problem.v0[i] = 0.5 + 1e-3 * static_cast<double>(i);
    problem.fields.diffusion.values.push_back(1.0 + 1e-3 * static_cast<double>(i));
    problem.fields.kinetics[1].values.push_back(0.01 * static_cast<double>(i));
    problem.fields.node_type.push_back(i % 3 == 0 ? 1 : 0);
  }
  for (int ranks : {1, 2}) {
    for (int rank = 0; rank < ranks; ++rank) {
      CAPTURE(ranks);
      CAPTURE(rank);
      const fhn::Slab slab = fhn::make_slab(problem.domain, rank, ranks, 1);
      const fhn::cuda::DeviceFields fields(problem, slab);
      const index_t m = slab.array_nodes();
      CHECK(fields.parameter_values(0) == nullptr);
      CHECK(fields.parameter_values(2) == nullptr);
      REQUIRE(fields.diffusion_values() != nullptr);
      REQUIRE(fields.parameter_values(1) != nullptr);
      REQUIRE(fields.node_types() != nullptr);
      CHECK(device_values(fields.v(), m) == slab_layout(problem.v0, slab));
      CHECK(device_values(fields.diffusion_values(), m) ==
            slab_layout(problem.fields.diffusion.values, slab));
      CHECK(device_values(fields.parameter_values(1), m) ==
            slab_layout(problem.fields.kinetics[1].values, slab));
      CHECK(device_values(fields.node_types(), m) == slab_layout(problem.fields.node_type, slab));
    }
  }
}
