#pragma once
// Helpers shared by the unit tests.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "io/frame_sink.hpp"
#include "schemes/scheme.hpp"
#include "sweep/sweep.hpp"

namespace fhn::test {

// A fresh directory under the system temp folder, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Whether `text` contains `part`: messages are checked by the part that matters.
bool contains(const std::string& text, const std::string& part);

// Writes `text` to `file` (creating it) and returns the path as a string.
std::string write_text(const std::filesystem::path& file, const std::string& text);
std::string read_text(const std::filesystem::path& file);

// A CSV file as rows of cells (header first); quoted cells keep their commas.
std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file);
// The index of the header's column `name` (a failed check when there is none).
std::size_t column(const std::vector<std::string>& header, const std::string& name);

// Path of a file in the source tree, e.g. source_path("configs/pulse_split.yaml").
std::string source_path(const std::string& relative);

// Config from YAML text, as if read from a file called "test.yaml".
Config config_from(const std::string& yaml, const std::vector<std::string>& overrides = {});

// The message of the `Error` that f() throws ("" when it throws none).
template <class Error, class F>
std::string thrown_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The message of the ConfigError that loading `yaml` raises ("" if it loads).
std::string config_error(const std::string& yaml, const std::vector<std::string>& overrides = {});

// fhn sweep of `sweep_yaml` (read as dir/sweep.yaml: its base config lies in `dir`) with
// `overrides`, quietly, into dir/<out>.
SweepResult sweep_quietly(const std::filesystem::path& dir, const std::string& sweep_yaml,
                          const std::string& out, const std::vector<std::string>& overrides);

// fhn sweep over beta = 0.7, 0.88 and 1.0 of small sheets in Winfree's scaling at eps = 0.3
// (40 x 40, dx = 0.4, spiral starts, to t = 60) with measure.planar, `overrides` besides, into
// dir/<out>: its sweep.csv rows (header first). A rigid spiral, then retract (between Winfree's
// dR and dP) and no_propagation (beyond dP).
std::vector<std::vector<std::string>> winfree_planar_sweep(const std::filesystem::path& dir,
                                                           const std::string& out,
                                                           const std::vector<std::string>& overrides);

// A scheme of `config` advanced `steps` steps (its Newton iterations to `log`), and its state.
struct SchemeRun {
  Snapshot state;
  const NewtonStats* stats = nullptr;  // the scheme's, nullptr for explicit schemes
  std::unique_ptr<Scheme> scheme;
};
SchemeRun run_scheme(const Config& config, index_t steps, NewtonLog* log = nullptr);

// An nx x ny sheet of spacing dx from the origin.
Domain sheet_domain(index_t nx, index_t ny, real dx);

// The times v at `node` crosses `level` upwards, linear between frames: a FrameSink for the
// arrival of a wave.
class UpCrossings final : public FrameSink {
 public:
  UpCrossings(index_t node, real level) : node_(node), level_(level) {}
  void write(const FrameView& f) override {
    const real v = f.v[node_];
    if (f.index > 0 && last_v_ < level_ && v >= level_)
      times.push_back(last_t_ + (level_ - last_v_) / (v - last_v_) * (f.t - last_t_));
    last_t_ = f.t;
    last_v_ = v;
  }
  std::vector<real> times;

 private:
  index_t node_;
  real level_, last_t_ = 0.0, last_v_ = 0.0;
};

// The config's whole run through the time loop of `fhn run`, every frame to each of `sinks`.
void run_with_sinks(const Config& config, const std::vector<FrameSink*>& sinks);

// fhn run of `config` into `dir`, quietly; from the checkpoint `restart` when one is given.
void run_config(const Config& config, const std::filesystem::path& dir,
                const std::filesystem::path& restart = {});

// Checks that a ProbeSampler on `scheme` reads at config's probes what FrameView::at reads from
// `state` (the scheme's snapshot now), bit for bit, over the problem's tissue mask.
void check_probes_read_the_frame(const Config& config, const Scheme& scheme, const Snapshot& state);

// max_i max(|a.v_i - b.v_i|, |a.w_i - b.w_i|); infinity when the sizes differ.
double max_state_difference(const Snapshot& a, const Snapshot& b);

// Final states of `yaml` (with the `fixed` overrides) for key = each of `values`, e.g. a
// sequence of halved time steps.
std::vector<Snapshot> refinement(const std::string& yaml, const std::vector<std::string>& fixed,
                                 const std::string& key, const std::vector<std::string>& values);

// Checks that every observed order between successive levels (refined by 2) is within
// `tolerance` of `expected`; returns the orders.
std::vector<double> check_orders(const std::vector<Snapshot>& levels, double expected,
                                 double tolerance = 0.2);

// A tridiagonal system on the host (lower[0] = upper[n-1] = 0).
struct HostSystem {
  std::vector<double> lower, diag, upper, rhs;
  index_t size() const { return static_cast<index_t>(diag.size()); }
};

// Strictly diagonally dominant with random signs: |d_i| = |l_i| + |u_i| + margin, margin in
// [0.1, 1], off-diagonals and rhs uniform in [-1, 1] and [-10, 10].
HostSystem random_dominant_system(index_t n, std::mt19937_64& rng);

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};
CliResult run_cli(const std::vector<std::string>& args);

// fhn sweep over model.a (0.01, 0.02) of the base config `base_yaml`, written as dir/`base`, into
// dir/o: the command's result; `sweep` receives the sweep file's path (what a refusal names first).
CliResult sweep_over_base(const std::filesystem::path& dir, const std::string& base,
                          const std::string& base_yaml, std::string& sweep);

// Runs `body` in a forked child process that exits with its return value (125 if it throws: a
// child never returns into the test runner) and is killed with SIGKILL when the test process
// ends, so that a test which fails before it reaps the child cannot leave it running (ctest
// would wait for the child's end of the output pipe for ever). Returns the child's pid.
int fork_child(const std::function<int()>& body);

// Runs `fhn args...` in a child process (fork_child; after `prepare` there, e.g. a resource
// limit); its stderr goes to `err_file`. Returns the child's pid.
int spawn_cli(const std::vector<std::string>& args, const std::filesystem::path& err_file,
              void (*prepare)() = nullptr);
// Waits for a child; its exit code, or minus the signal that killed it.
int wait_exit_code(int pid);

// `fhn args...` in a child process allowed `headroom` bytes of address space beyond what it has
// mapped (ulimit -v; relative, since AddressSanitizer reserves terabytes up front), so that an
// allocation the program should have refused stops it with exit code 1 (out of host memory)
// rather than exhausting the machine. Returns the exit code; stderr goes to `err_file`.
int run_with_address_space(const std::vector<std::string>& args,
                           const std::filesystem::path& err_file, std::uint64_t headroom);

// Waits for `done` to say true: asks it, and after each of at most `tries` waits of `step` asks
// again; returns its last answer.
bool wait_until(const std::function<bool()>& done, int tries,
                std::chrono::milliseconds step = std::chrono::milliseconds(50));

// A cable run slow enough to be stopped or disturbed mid-way: 20001 nodes and dt = 4e-5, about
// half a second of computing per time unit, a frame and a probe row each time unit. Writes its
// config `name`.yaml into `dir` (time.end = `end`; the x-t kymograph only if `spacetime`) and
// returns the arguments of `fhn run --quiet` into dir / "out" (output.vtk and output.spacetime
// off where VTK is not compiled in).
std::vector<std::string> slow_run_args(const std::filesystem::path& dir, const std::string& name,
                                       int end, bool spacetime);

}  // namespace fhn::test
