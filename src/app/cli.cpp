#include "app/cli.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "config/capabilities.hpp"
#include "config/loader.hpp"
#include "config/names.hpp"
#include "core/build_info.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/vtk_writers.hpp"
#include "run/memory_estimate.hpp"
#include "run/run.hpp"
#include "study/study.hpp"
#include "sweep/sweep.hpp"

namespace fhn {
namespace {

BuildCapabilities this_build() {
  BuildCapabilities build;
  build.vtk = vtk_compiled();
  return build;
}

void print_info(std::ostream& out) {
  out << "fhnsim " << version() << "\n"
      << "  revision:   " << git_revision() << "\n"
      << "  build:      " << build_type() << ", " << compiler() << "\n"
      << "  CUDA:       " << (cuda_compiled() ? "on" : "off") << "\n"
      << "  MPI:        " << (mpi_compiled() ? "on (mpirun -np N fhn run ... spreads a run)" : "off")
      << "\n"
      << "  VTK output: " << (vtk_compiled() ? "on" : "off") << "\n";
  std::string why;
  const std::vector<CudaDevice> devices = cuda_devices(&why);
  if (devices.empty()) {
    out << "  CUDA devices: none (" << why << ")\n";
    return;
  }
  out << "  CUDA devices:\n";
  for (const CudaDevice& d : devices) {
    char memory[32];
    std::snprintf(memory, sizeof memory, "%.1f GiB",
                  static_cast<double>(d.memory_bytes) / (1024.0 * 1024.0 * 1024.0));
    out << "    [" << d.index << "] " << d.name << ", " << memory << ", compute capability "
        << d.compute_major << "." << d.compute_minor << "\n";
  }
}

void print_plan(std::ostream& out, const Config& c) {
  out << c.source << ": ok\n"
      << "  " << c.name << ": " << name_of(scheme_type_names(), c.scheme.type) << " on "
      << name_of(backend_names(), c.scheme.backend) << ", " << c.domain.summary()
      << ", dt = " << format_exact(c.time.dt)
      << ", " << c.time.steps << " steps to t = " << format_exact(c.time.end) << ", "
      << c.output.frames_in(c.time.steps) << " frames\n";
}

// --sizes and --cpu-max-n items: "" when `text` is valid, else what is wrong with it.
CLI::Validator bench_sizes_validator() {
  return CLI::Validator(
      [](std::string& text) {
        std::vector<index_t> sizes;
        return bench::parse_sizes(text, sizes);
      },
      "SIZE");
}

std::vector<index_t> bench_sizes(const std::vector<std::string>& items) {
  if (items.empty()) return bench::default_sizes();
  std::vector<index_t> sizes;
  for (const std::string& item : items) bench::parse_sizes(item, sizes);  // validated by CLI11
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// "unknown command 'runn'; the commands are: run, ...; did you mean 'run'?" when the first word
// after fhn's own options names no command (CLI11 reports only that one is required), else "".
std::string unknown_command(const CLI::App& app, int argc, const char* const* argv) {
  if (!app.get_subcommands().empty()) return "";
  int first = 1;
  while (first < argc && argv[first][0] == '-') ++first;
  if (first >= argc) return "";
  const std::string word = argv[first];
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(command->get_name());
  if (std::find(names.begin(), names.end(), word) != names.end()) return "";
  std::string known;
  for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
  return "unknown command '" + word + "'; the commands are: " + known + did_you_mean(word, names);
}

}  // namespace

int cli_main(int argc, const char* const* argv, std::ostream& out_all, std::ostream& err_all,
             Communicator* world) {
  // Several ranks: rank 0 speaks for all of them (they parse, load and fail alike).
  const bool ranks = world && world->size() > 1;
  std::ostringstream silent;
  std::ostream& out = !ranks || world->root() ? out_all : silent;
  std::ostream& err = !ranks || world->root() ? err_all : silent;

  CLI::App app{"fhnsim: FitzHugh-Nagumo reaction-diffusion simulator (explicit, adaptive-grid and "
               "Crank-Nicolson schemes; ParaView output)",
               "fhn"};
  app.set_version_flag("--version", std::string("fhnsim ") + version() + " (" + git_revision() + ")");
  app.require_subcommand(1);

  std::string config_path;
  std::vector<std::string> overrides;
  RunOptions run_options;
  std::string output_dir;

  CLI::App* run = app.add_subcommand("run", "run a simulation described by a YAML config");
  run->add_option("config", config_path, "YAML config file (see configs/README.md)")->required();
  run->add_option("--set", overrides, "override a config key, e.g. --set time.dt=0.05 (repeatable)")
      ->take_all();
  run->add_option("--output", output_dir, "output folder (default: output/<name>)");
  run->add_flag("--quiet", run_options.quiet, "no progress bar or closing message");
  std::string restart;
  run->add_option("--restart", restart,
                  "continue from a checkpoint (output/<name>/checkpoints/*.chk) of a run of the same "
                  "config; its output files are continued");

  CLI::App* validate = app.add_subcommand("validate", "check a config and print what it would run");
  validate->add_option("config", config_path, "YAML config file")->required();
  validate->add_option("--set", overrides, "override a config key (repeatable)")->take_all();

  std::string study_path;
  CLI::App* converge = app.add_subcommand(
      "converge", "run a convergence, stability or Newton study (see configs/studies/README.md)");
  converge->add_option("study", study_path, "study YAML file")->required();
  converge->add_option("--output", output_dir, "output folder (default: output/<study name>)");

  std::string sweep_path;
  SweepOptions sweep_options;
  CLI::App* sweep = app.add_subcommand(
      "sweep", "run the members of a parameter sweep together, one row each in sweep.csv (see "
               "configs/sweeps/README.md)");
  sweep->add_option("sweep", sweep_path, "sweep YAML file")->required();
  sweep->add_option("--set", overrides, "override a key of every member's config (repeatable)")
      ->take_all();
  sweep->add_option("--output", output_dir, "output folder (default: output/<sweep name>)");
  sweep->add_flag("--quiet", sweep_options.quiet, "no progress bar");
  sweep->add_option("--threads", sweep_options.threads, "CPU worker threads (default: all cores)")
      ->check(CLI::Range(1, 4096));
  sweep->add_option("--bench", sweep_options.bench_members,
                    "afterwards, run this many members one after another (fhn run inside this "
                    "process, and an fhn run process each) and report the batched sweep's "
                    "speed-up over both (summary.json, run.log)")
      ->check(CLI::Range(1, 1 << 20));

  bench::BenchOptions bench_options;
  std::vector<std::string> bench_size_items;
  std::string bench_cpu_max_n;  // empty: BenchOptions' default
  CLI::App* bench_command = app.add_subcommand(
      "bench",
      "time the tridiagonal solvers, the explicit step and the Newton iteration against the "
      "copy bandwidth, LAPACK and cuSPARSE (CPU and GPU); a table, and a CSV for "
      "tools/plot_bench.py");
  bench_command->footer(
      "Every variant is checked against a reference before it is timed (a check above 1e-8 is "
      "FAILED, exit code 3). The table gives per size the median time per call, the spread "
      "(max - min) / median, GB/s of the kernel's byte model, % of the same device's copy "
      "bandwidth and the speed-up over the baseline variant.\n"
      "Example: fhn bench --sizes 2^10..2^22 --cpu-only --csv bench.csv && "
      "tools/plot_bench.py bench.csv");
  bench_command
      ->add_option("--sizes", bench_size_items,
                   "problem sizes n: 4096, 2^12, or a range 2^10..2^20 (every power of two); at "
                   "most 2^28 (default: 2^10 2^12 ... 2^26)")
      ->delimiter(',')
      ->check(bench_sizes_validator());
  bench_command
      ->add_option("--repetitions", bench_options.repetitions,
                   "timed calls per variant and size, median reported (CPU: fewer, at least 3, "
                   "when a size would take over ~2 s)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  bool cpu_only = false, gpu_only = false;
  CLI::Option* cpu_only_flag =
      bench_command->add_flag("--cpu-only", cpu_only, "only the CPU variants");
  bench_command->add_flag("--gpu-only", gpu_only, "only the GPU variants")
      ->excludes(cpu_only_flag);
  bench_command
      ->add_option("--cpu-max-n", bench_cpu_max_n,
                   "the CPU variants run up to this n, default 2^24 (the GPU ones at all sizes)")
      ->check(bench_sizes_validator());
  bench_command
      ->add_option("--only", bench_options.only,
                   "measure only these kinds of rows (repeatable; the copy, their baseline, "
                   "always runs), e.g. --only 'box step'")
      ->check(CLI::IsMember(bench::bench_kinds()));
  bench_command->add_option("--csv", bench_options.csv,
                            "write every row, with GB/s, % of copy and speed-up, to this CSV file");
  std::string bench_form = kinetics_name(bench_options.kinetics);
  bench_command
      ->add_option("--form", bench_form,
                   "the kinetics form (model.form) of the explicit, Newton and ADI problems, with "
                   "its default parameters")
      ->capture_default_str()
      ->check(CLI::IsMember(kinetics_names()));

  CLI::App* info = app.add_subcommand("info", "version, build features and CUDA devices");
  bool capabilities = false;
  info->add_flag("--capabilities", capabilities,
                 "print what runs where (scheme, domain, medium, mode, backend) as the markdown "
                 "table of configs/README.md");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    out << app.version() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    const std::string unknown = unknown_command(app, argc, argv);
    if (!unknown.empty()) {
      err << "fhn: " << unknown << "\nRun 'fhn --help' for what each command does.\n";
      return static_cast<int>(ExitCode::usage);
    }
    err << "fhn: " << e.what() << "\n";
    if (!app.get_subcommands().empty())
      err << app.get_subcommands().front()->help();
    else
      err << "Run 'fhn --help' for the commands.\n";
    return static_cast<int>(ExitCode::usage);
  }

  // Once a distributed run has started, a failure may be this rank's alone (a sweep knows its own
  // such phase and stops the ranks itself).
  bool started = false;
  try {
    if (ranks && (converge->parsed() || bench_command->parsed()))
      throw ConfigError(std::string("fhn ") + (converge->parsed() ? "converge" : "bench") +
                        " runs as one process; start it without mpirun (fhn run and fhn sweep "
                        "spread over ranks)");
    if (info->parsed()) {
      if (capabilities)
        out << capability::markdown();
      else
        print_info(out);
      return 0;
    }
    if (bench_command->parsed()) {
      bench_options.sizes = bench_sizes(bench_size_items);
      if (!bench_cpu_max_n.empty())
        bench_options.cpu_max_n = bench_sizes({bench_cpu_max_n}).back();
      bench_options.cpu = !gpu_only;
      bench_options.gpu = !cpu_only;
      make_kinetics(bench_form, bench_options.kinetics);  // a name IsMember checked
      return bench::run_bench(bench_options, out);
    }
    if (converge->parsed()) {
      StudyOptions study_options;
      study_options.output_dir = output_dir;
      study_options.build = this_build();
      const auto csv = run_study(load_study(study_path), study_options, out);
      out << "\nwritten: " << csv.string() << "\n";
      return 0;
    }
    if (sweep->parsed()) {
      sweep_options.output_dir = output_dir;
      sweep_options.overrides = overrides;
      sweep_options.build = this_build();
      sweep_options.comm = world;
      const SweepResult result = run_sweep(load_sweep(sweep_path), sweep_options, out);
      if (!sweep_options.quiet)
        out << "fhn: " << result.members << " members (" << result.failed << " failed) in "
            << format_exact(std::round(result.wall_seconds * 100.0) / 100.0) << " s; "
            << (result.output_dir / "sweep.csv").string() << "\n"
            << "     plot it: tools/plot_sweep.py " << (result.output_dir / "sweep.csv").string()
            << "\n";
      return 0;
    }
    const Config config = load_config(config_path, overrides, this_build());
    if (validate->parsed()) {
      for (const std::string& warning : config.warnings)
        err << "fhn: warning: " << warning << "\n";
      print_plan(out, config);
      for (const std::string& line : describe_run_memory(config, world ? world->size() : 1))
        out << "  " << line << "\n";
      return 0;
    }
    run_options.output_dir = output_dir;
    run_options.restart = restart;
    run_options.overrides = overrides;
    run_options.comm = world;
    started = true;
    const RunSummary summary = run_simulation(config, run_options);
    if (!run_options.quiet) {
      const std::string pvd = (summary.output_dir / (config.name + ".pvd")).string();
      out << "fhn: " << summary.steps << " steps, " << summary.frames << " frames in "
          << format_exact(std::round(summary.wall_seconds * 100.0) / 100.0) << " s; output in "
          << summary.output_dir.string() << "/\n";
      if (config.output.vtk)
        out << "     open it in ParaView: paraview " << pvd << "\n";
      if (config.output.spacetime)
        out << "     kymograph as a PNG:  tools/plot_kymograph.py "
            << (summary.output_dir / "spacetime.vti").string() << "\n";
      if (config.output.vtk && config.domain.dims == 2)
        out << "     frames as PNGs:      tools/plot_frames.py " << pvd << " --frames 0 -1\n";
      if (config.output.vtk && config.output.tips.enabled)
        out << "     the tips' path:      tools/plot_tips.py " << pvd << "\n";
    }
    return 0;
  } catch (const Error& e) {
    // NaN/Inf and interruptions are found by all ranks together; anything else after the start
    // may be this rank's alone.
    if (ranks && started && e.code() != ExitCode::numerical && e.code() != ExitCode::interrupted)
      stop_every_rank(*world, std::current_exception());
    err << (e.code() == ExitCode::interrupted ? "fhn: " : "fhn: error: ") << e.what() << "\n";
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    if (ranks && started) stop_every_rank(*world, std::current_exception());
    err << "fhn: error: out of host memory (a smaller domain.nodes or fewer frames kept in memory "
           "may help)\n";
    return static_cast<int>(ExitCode::internal);
  } catch (const std::exception& e) {
    if (ranks && started) stop_every_rank(*world, std::current_exception());
    err << "fhn: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::internal);
  }
}

}  // namespace fhn
