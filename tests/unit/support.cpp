#include "support.hpp"

#include <doctest/doctest.h>

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "app/cli.hpp"
#include "config/loader.hpp"
#include "core/error.hpp"
#include "io/vtk_writers.hpp"
#include "model/problem.hpp"
#include "run/progress.hpp"
#include "run/run.hpp"
#include "run/run_loop.hpp"
#include "config/sweep_config.hpp"
#include "study/convergence.hpp"
#include "study/probes.hpp"
#include "sweep/sweep.hpp"

namespace fhn::test {

TempDir::TempDir() {
  std::random_device seed;
  path_ = std::filesystem::temp_directory_path() / ("fhn_test_" + std::to_string(seed()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ec);
  std::filesystem::remove_all(path_, ec);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string write_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file) << text;
  return file.string();
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_text(file));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (char ch : line) {
      if (ch == '"') quoted = !quoted;
      else if (ch == ',' && !quoted) cells.emplace_back();
      else cells.back() += ch;
    }
    rows.push_back(cells);
  }
  return rows;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  FAIL("no column " << name);
  return 0;
}

std::string source_path(const std::string& relative) {
  return (std::filesystem::path(FHN_SOURCE_DIR) / relative).string();
}

SchemeRun run_scheme(const Config& config, index_t steps, NewtonLog* log) {
  SchemeRun r;
  const Problem problem = make_problem(config);
  r.scheme = make_scheme(config, problem, log);
  r.scheme->advance(steps);
  r.scheme->snapshot(r.state);
  r.stats = r.scheme->newton_stats();
  return r;
}

Domain sheet_domain(index_t nx, index_t ny, real dx) {
  Domain d;
  d.dims = 2;
  d.nodes = {nx, ny, 1};
  d.length = {dx * static_cast<real>(nx - 1), dx * static_cast<real>(ny - 1), 0.0};
  d.dx = dx;
  return d;
}

void run_with_sinks(const Config& config, const std::vector<FrameSink*>& sinks) {
  const Problem problem = make_problem(config);
  auto scheme = make_scheme(config, problem);
  RunLoopSettings settings;
  settings.time = config.time.grid();
  settings.frame_every = config.output.every_steps;
  if (!problem.fields.node_type.empty()) settings.outside = problem.fields.node_type.data();
  Progress quiet(config.time.grid(), false);
  RunLoopResult result;
  advance_run(*scheme, settings, sinks, quiet, result);
}

void run_config(const Config& config, const std::filesystem::path& dir,
                const std::filesystem::path& restart) {
  RunOptions options;
  options.output_dir = dir;
  options.quiet = true;
  options.restart = restart;
  run_simulation(config, options);
}

void check_probes_read_the_frame(const Config& config, const Scheme& scheme, const Snapshot& state) {
  const Problem problem = make_problem(config);
  const std::uint8_t* mask =
      problem.fields.node_type.empty() ? nullptr : problem.fields.node_type.data();
  ProbeSampler sampler(problem.domain, config.output.probes, mask);
  sampler.read(scheme);
  FrameView frame = frame_view(state, 0);
  frame.outside = mask;
  for (std::size_t k = 0; k < config.output.probes.size(); ++k) {
    CAPTURE(k);
    CHECK(sampler.v()[k] == frame.at(frame.v, config.output.probes[k]));
    CHECK(sampler.w()[k] == frame.at(frame.w, config.output.probes[k]));
  }
}

double max_state_difference(const Snapshot& a, const Snapshot& b) {
  if (a.v.size() != b.v.size() || a.w.size() != b.w.size()) return std::numeric_limits<double>::infinity();
  double worst = 0.0;
  for (std::size_t i = 0; i < a.v.size(); ++i)
    worst = std::max({worst, std::abs(a.v[i] - b.v[i]), std::abs(a.w[i] - b.w[i])});
  return worst;
}

Config config_from(const std::string& yaml, const std::vector<std::string>& overrides) {
  return load_config_text(yaml, "test.yaml", overrides);
}

std::string config_error(const std::string& yaml, const std::vector<std::string>& overrides) {
  return thrown_message<ConfigError>([&] { config_from(yaml, overrides); });
}

std::vector<std::vector<std::string>> winfree_planar_sweep(const std::filesystem::path& dir,
                                                           const std::string& out,
                                                           const std::vector<std::string>& overrides) {
  write_text(dir / "winfree.yaml", R"(
name: winfree_small
model: {form: fitzhugh, a: 0.7, b: 0.5, tau_v: 0.3, tau_w: 3.3333333333333335, diffusion: 1.0}
domain: {length: [40, 40], dx: 0.4}
initial: {v: {type: spiral}, w: {type: spiral}}
time: {end: 60, dt: 0.01}
output: {every: 0.5, vtk: false, probes: []}
)");
  sweep_quietly(dir,
                "base: winfree.yaml\naxes: [{key: model.a, values: [0.7, 0.88, 1.0]}]\n"
                "measure: {planar: true}\n",
                out, overrides);
  return read_csv(dir / out / "sweep.csv");
}

SweepResult sweep_quietly(const std::filesystem::path& dir, const std::string& sweep_yaml,
                          const std::string& out, const std::vector<std::string>& overrides) {
  SweepOptions options;
  options.output_dir = dir / out;
  options.quiet = true;
  options.overrides = overrides;
  std::ostringstream log;
  return run_sweep(load_sweep_text(sweep_yaml, (dir / "sweep.yaml").string()), options, log);
}

std::vector<Snapshot> refinement(const std::string& yaml, const std::vector<std::string>& fixed,
                                 const std::string& key, const std::vector<std::string>& values) {
  std::vector<Snapshot> levels;
  for (const std::string& value : values) {
    std::vector<std::string> overrides = fixed;
    overrides.push_back(key + "=" + value);
    levels.push_back(final_state(config_from(yaml, overrides)));
  }
  return levels;
}

std::vector<double> check_orders(const std::vector<Snapshot>& levels, double expected,
                                 double tolerance) {
  const std::vector<double> orders = successive_orders(levels, Norm::rmse);
  CHECK(orders.size() + 2 == levels.size());
  for (const double order : orders) {
    CAPTURE(order);
    CHECK(std::abs(order - expected) < tolerance);
  }
  return orders;
}

HostSystem random_dominant_system(index_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> coefficient(-1.0, 1.0), margin(0.1, 1.0);
  HostSystem s;
  for (index_t i = 0; i < n; ++i) {
    const double l = i > 0 ? coefficient(rng) : 0.0;
    const double u = i + 1 < n ? coefficient(rng) : 0.0;
    const double sign = coefficient(rng) < 0 ? -1.0 : 1.0;
    s.lower.push_back(l);
    s.upper.push_back(u);
    s.diag.push_back(sign * (std::abs(l) + std::abs(u) + margin(rng)));
    s.rhs.push_back(coefficient(rng) * 10.0);
  }
  return s;
}

CliResult sweep_over_base(const std::filesystem::path& dir, const std::string& base,
                          const std::string& base_yaml, std::string& sweep) {
  write_text(dir / base, base_yaml);
  sweep = write_text(dir / "s.yaml",
                     "base: " + base + "\naxes: [{key: model.a, values: [0.01, 0.02]}]\n");
  return run_cli({"sweep", sweep, "--output", (dir / "o").string()});
}

CliResult run_cli(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"fhn"};
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CliResult r;
  r.code = cli_main(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

int fork_child(const std::function<int()>& body) {
  const pid_t parent = getpid();
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // Dies with the test process; if that ended before prctl took effect, end now.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(125);
    int code = 125;
    try {
      code = body();
    } catch (...) {
    }
    _exit(code);
  }
  return child;
}

int spawn_cli(const std::vector<std::string>& args, const std::filesystem::path& err_file,
              void (*prepare)()) {
  return fork_child([&] {
    if (prepare) prepare();
    const CliResult r = run_cli(args);
    std::ofstream(err_file) << r.err;
    return r.code;
  });
}

int wait_exit_code(int pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

int run_with_address_space(const std::vector<std::string>& args,
                           const std::filesystem::path& err_file, std::uint64_t headroom) {
  // The child's limit, read by the capture-free function spawn_cli calls there.
  static std::uint64_t limit_headroom = 0;
  limit_headroom = headroom;
  return wait_exit_code(spawn_cli(args, err_file, [] {
    std::ifstream status("/proc/self/status");
    rlim_t mapped_kb = 0;
    for (std::string key; status >> key;)
      if (key == "VmSize:" && status >> mapped_kb) break;
    const rlim_t bytes = (mapped_kb << 10) + static_cast<rlim_t>(limit_headroom);
    const rlimit limit{bytes, bytes};
    setrlimit(RLIMIT_AS, &limit);
  }));
}

bool wait_until(const std::function<bool()>& done, int tries, std::chrono::milliseconds step) {
  for (int i = 0; i < tries; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(step);
  }
  return done();
}

std::vector<std::string> slow_run_args(const std::filesystem::path& dir, const std::string& name,
                                       int end, bool spacetime) {
  const std::string config =
      write_text(dir / (name + ".yaml"),
                 "name: " + name + "\n" +
                     "domain: {length: 200, nodes: 20001}\n"
                     "time: {end: " + std::to_string(end) + ", dt: 0.00004}\n" +
                     "output: {every: 1" + (spacetime ? "" : ", spacetime: false") + "}\n");
  std::vector<std::string> args{"run", config, "--quiet", "--output", (dir / "out").string()};
  if (!vtk_compiled())
    args.insert(args.end(), {"--set", "output.vtk=false", "--set", "output.spacetime=false"});
  return args;
}

}  // namespace fhn::test
