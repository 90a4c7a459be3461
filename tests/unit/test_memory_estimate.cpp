// The memory a run needs (run/memory_estimate.hpp), counted by hand from the arrays of each
// scheme and writer, and the refusal of a grid too big for the machine before anything is
// allocated or written.
#include <doctest/doctest.h>

#include "core/format.hpp"
#include "run/memory_estimate.hpp"
#include "support.hpp"

using fhn::test::contains;

namespace {

const char* kCable =
    "name: small\n"
    "domain: {length: 20, nodes: 41}\n"
    "time: {end: 2, dt: 0.1}\n"
    "output: {every: 0.5, probes: [10]}\n";

double item(const fhn::MemoryEstimate& e, const std::string& what) {
  for (const fhn::MemoryItem& i : e.host)
    if (contains(i.what, what)) return i.bytes;
  for (const fhn::MemoryItem& i : e.device)
    if (contains(i.what, what)) return i.bytes;
  FAIL("no item " << what);
  return 0.0;
}

// `fhn args...` in a child process allowed 4 GB of address space beyond what it has mapped: far
// less than the grids and sweeps below take. Returns the exit code; stderr goes to `err_file`.
int run_limited(const std::vector<std::string>& args, const std::filesystem::path& err_file) {
  return fhn::test::run_with_address_space(args, err_file, std::uint64_t{4} << 30);
}

}  // namespace

TEST_CASE("the memory estimate of an explicit cable, counted by hand") {
  const fhn::Config c = fhn::test::config_from(kCable);
  const fhn::MemoryEstimate e = fhn::estimate_run_memory(c);
  // 41 nodes of 8 B values: the problem's v0, w0 and x, and the scheme's copy of them.
  CHECK(item(e, "the problem") == 3 * 8 * 41);
  CHECK(item(e, "the scheme's copy") == 3 * 8 * 41);
  CHECK(item(e, "scheme: v, w, next v, w (4 arrays)") == 4 * 8 * 41);
  CHECK(item(e, "the frame being written") == 3 * 8 * 41);
  // 20 steps, a frame every 5: frames at steps 0, 5, 10, 15, 20, each 41 columns.
  CHECK(item(e, "spacetime.vti: 5 frames x 41 columns") == 5 * 41 * 8);
  // Temporaries: a checkpoint, 3 copies of v and w (1968 B), or a VTK frame: v, w (16 B) and a
  // cable's points and cells (49 B) per node (2665 B).
  CHECK(e.host_peak_temporary.what == "a VTK frame being written");
  CHECK(e.host_peak_temporary.bytes == 41 * (16 + 49));
  CHECK(e.host_total() == 3 * 984 + 1312 + 1640 + 2665);
  CHECK(e.device.empty());
}

TEST_CASE("the memory estimate counts each scheme's own arrays") {
  const std::string cable = kCable;
  // Crank-Nicolson/Newton with the leapfrog w and a stimulus: 12 arrays; its checkpoint saves v, w
  // and the previous w (3 x 3 x 8 x 41 = 2952 B > the VTK frame's 2665 B).
  const fhn::MemoryEstimate cn =
      fhn::estimate_run_memory(fhn::test::config_from(
          cable + "scheme: {type: crank_nicolson, crank_nicolson: {w_update: leapfrog}}\n"
                  "stimulus: [{x_min: 0, x_max: 2, start: 0, duration: 1, amplitude: 1}]\n"));
  CHECK(item(cn, "(12 arrays)") == 12 * 8 * 41);
  CHECK(cn.host_peak_temporary.bytes == 3 * 3 * 8 * 41);
  // The adaptive grid: 12 arrays over every base node.
  const fhn::MemoryEstimate adaptive = fhn::estimate_run_memory(
      fhn::test::config_from(cable + "scheme: {type: adaptive_explicit}\n"));
  CHECK(item(adaptive, "(12 arrays, every base node kept)") == 12 * 8 * 41);
  // A sheet of 11 x 6 nodes by ADI with activation times: coordinates 11 + 6, v, w, right side and
  // the solver's workspace; the scheme records the first times and copies v before each step,
  // the frame and the activation map hold a copy of the times each; no kymograph; VTK frames of
  // v, w only.
  const fhn::MemoryEstimate adi = fhn::estimate_run_memory(fhn::test::config_from(
      "domain: {length: [10, 5], dx: 1}\ntime: {end: 1, dt: 0.1}\n"
      "scheme: {type: crank_nicolson}\noutput: {activation: {enabled: true}}\n"));
  CHECK(item(adi, "the problem") == 2 * 8 * 66 + 8 * 17);
  CHECK(item(adi, "v, w, right side, solver workspace (4 arrays)") == 4 * 8 * 66);
  CHECK(item(adi, "activation times recorded at every step, and v before each step") ==
        2 * 8 * 66);
  CHECK(item(adi, "activation.vti") == 2 * 8 * 66);
  // Checkpoint: v, w and the first activation times, 3 copies.
  CHECK(adi.host_peak_temporary.bytes == 3 * 3 * 8 * 66);
  // On the device: the CUDA explicit scheme's v, w and next v, w; the host keeps no scheme
  // arrays. On 2 ranks, each rank's device holds half the nodes.
  const fhn::Config gpu = fhn::test::config_from(cable + "scheme: {backend: cuda}\n");
  const fhn::MemoryEstimate device = fhn::estimate_run_memory(gpu);
  CHECK(device.device_total() == 32 * 41);
  CHECK(device.host.size() == 4);  // problem, its copy, frame, kymograph
  CHECK(fhn::estimate_run_memory(gpu, 2).device_total() == 32 * 41 / 2.0);
  // ADI on GPUs: v, w, the right side and the partitioned solver's workspace (4 values per
  // node); over several ranks also the transpose's packed blocks and whole lines (2 more).
  const fhn::Config adi_gpu = fhn::test::config_from(
      "domain: {length: [10, 5], dx: 1}\ntime: {end: 1, dt: 0.1}\n"
      "scheme: {type: crank_nicolson, backend: cuda}\n");
  CHECK(item(fhn::estimate_run_memory(adi_gpu), "scheme arrays on the device (32 B per node)") ==
        32 * 66);
  CHECK(item(fhn::estimate_run_memory(adi_gpu, 2), "scheme arrays on the device (48 B per node)") ==
        48 * 66 / 2.0);
}

TEST_CASE("per-node parameter fields are counted only when a run holds them") {
  const std::string sheet =
      "domain: {length: [20, 10], dx: 1}\ntime: {end: 2, dt: 0.05}\n"
      "output: {every: 0.5, probes: [], activation: {enabled: false}}\n";
  const std::string disc = "tissue: [{shape: disc, center: [10, 5], radius: 4}]\n";
  const std::string two_fields =
      "fields:\n"
      "  - {parameter: a, type: gradient, axis: x, start: 0, end: 20, from: 0.1, to: 0.2}\n"
      "  - {parameter: epsilon, type: gradient, axis: y, start: 0, end: 10, from: 0.01, to: 0.02}\n";
  const double n = 21 * 11;
  // What the arrays live through the run take (the largest temporary aside).
  auto kept = [](const fhn::MemoryEstimate& e) { return e.host_total() - e.host_peak_temporary.bytes; };
  const fhn::Config c = fhn::test::config_from(sheet + "scheme: {backend: cuda}\n");
  const fhn::MemoryEstimate plain = fhn::estimate_run_memory(c);
  for (const fhn::MemoryItem& i : plain.host) CHECK(!contains(i.what, "per-node"));
  CHECK(plain.device.size() == 1);
  // Two per-node parameters and the mask: 2 x 8 B + 1 B per node, in the problem and the scheme's
  // copy on the host, once on the device (each rank's share of the nodes), and the quadrant
  // bytes of the scheme that reads them.
  const fhn::Config held = fhn::test::config_from(sheet + "scheme: {backend: cuda}\n" + disc + two_fields);
  const fhn::MemoryEstimate fields = fhn::estimate_run_memory(held);
  CHECK(item(fields, "per-node parameter fields (2 parameter arrays and the node-type mask) in "
                     "the problem and the scheme's copy") == 2 * 17 * n);
  CHECK(item(fields, "per-node parameter fields on the device (2 parameter arrays and the "
                     "node-type mask, 17 B per node)") == 17 * n);
  CHECK(item(fields, "the quadrant bytes of a sheet with fields (1 B per node)") == n);
  CHECK(kept(fields) == kept(plain) + 2 * 17 * n);
  CHECK(fields.device_total() == plain.device_total() + 17 * n + n);
  CHECK(fhn::estimate_run_memory(held, 2).device_total() == (plain.device_total() + 17 * n + n) / 2.0);
  // ADI with a mask also holds each node's rows along x and y: 6 values per node on the host
  // and, on CUDA, on the device too, beside the mask and the quadrant bytes.
  for (const char* backend : {"cpu", "cuda"}) {
    CAPTURE(backend);
    const std::string adi = sheet + "scheme: {type: crank_nicolson, backend: " + backend + "}\n";
    const fhn::MemoryEstimate without = fhn::estimate_run_memory(fhn::test::config_from(adi));
    const fhn::MemoryEstimate with = fhn::estimate_run_memory(fhn::test::config_from(adi + disc));
    CHECK(item(with, "ADI: each node's rows along x and y (6 values per node)") == 6 * 8 * n);
    const bool cuda = std::string(backend) == "cuda";
    CHECK(kept(with) == kept(without) + 2 * n + 6 * 8 * n + (cuda ? 0 : n));
    CHECK(with.device_total() == without.device_total() + (cuda ? 6 * 8 * n + 2 * n : 0));
  }
  // A mask alone on the CPU: one byte per node, twice, the quadrant bytes, nothing on a device.
  const fhn::MemoryEstimate mask = fhn::estimate_run_memory(fhn::test::config_from(sheet + disc));
  CHECK(item(mask, "per-node parameter fields (the node-type mask)") == 2 * n);
  CHECK(item(mask, "the quadrant bytes of a sheet with fields (1 B per node)") == n);
  CHECK(mask.device.empty());
}

TEST_CASE("fhn validate prints the memory estimate and what is available") {
  fhn::test::TempDir dir;
  // Without VTK output (any build): the problem, its copy and the frame (3 x 984 B), the scheme
  // (1312 B) and, the largest temporary, a checkpoint (3 copies of v and w, 1968 B).
  const std::string config = fhn::test::write_text(
      dir / "small.yaml",
      "name: small\ndomain: {length: 20, nodes: 41}\ntime: {end: 2, dt: 0.1}\n"
      "output: {every: 0.5, probes: [10], vtk: false, spacetime: false}\n");
  const auto r = fhn::test::run_cli({"validate", config});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "  host memory: " + fhn::human_bytes(3 * 984 + 1312 + 1968) + " at most; "));
  CHECK(contains(r.out, " available here ("));
  const std::string scheme = "    " + fhn::human_bytes(1312) + "  scheme: v, w, next v, w";
  CHECK(contains(r.out, scheme + " (4 arrays)\n"));
}

TEST_CASE("a cable of 2^31 nodes is refused with exit code 2 before anything is allocated") {
  fhn::test::TempDir dir;
  // Without the check the run allocates 17 GB for the initial v alone (the test's limit: exit 1).
  const std::string config = fhn::test::write_text(
      dir / "long.yaml",
      "name: long\ndomain: {length: 2147483647, dx: 1}\ntime: {end: 1, dt: 0.1}\n"
      "output: {vtk: false, spacetime: false}\n");
  CHECK(run_limited({"run", config, "--output", (dir / "out").string()}, dir / "err.txt") == 2);
  const std::string err = fhn::test::read_text(dir / "err.txt");
  CAPTURE(err);
  CHECK(contains(err,
                 "fhn: error: the run (2147483648 nodes, dx = 1, length = 2147483647, one "
                 "process) needs about "));
  CHECK(contains(err, " of host memory but this machine has "));
  CHECK(contains(err, "; refused before allocating it"));
  CHECK_FALSE(std::filesystem::exists(dir / "out"));
}

TEST_CASE("a sweep of 4096 x 4096 members is refused with exit 2 before its configs are made") {
  fhn::test::TempDir dir;
  // Without the check, the 16.7 million members' configs alone take some 260 GB (400 probes each:
  // more than any test machine holds, also where the limit below is not enforced).
  std::string probes;
  for (int i = 0; i < 400; ++i) probes += (i ? ", " : "") + std::to_string(0.5 * i);
  fhn::test::write_text(dir / "cable.yaml", "domain: {length: 200, dx: 0.5}\ntime: {end: 10, dt: 0.1}\n"
                                            "output: {vtk: false, spacetime: false, probes: [" +
                                                probes + "]}\n");
  const std::string sweep =
      fhn::test::write_text(dir / "huge.yaml",
                            "name: huge\nbase: cable.yaml\naxes:\n"
                            "  - {key: model.a, from: 0.01, to: 0.2, count: 4096}\n"
                            "  - {key: model.epsilon, from: 0.001, to: 0.02, count: 4096}\n");
  CHECK(run_limited({"sweep", sweep, "--output", (dir / "out").string()}, dir / "err.txt") == 2);
  const std::string err = fhn::test::read_text(dir / "err.txt");
  CAPTURE(err);
  CHECK(contains(err, "fhn: error: the sweep (16777216 members; "));
  CHECK(contains(err, " of host memory but this machine has "));
  CHECK_FALSE(std::filesystem::exists(dir / "out"));
}

TEST_CASE("member_host_bytes: what a sweep member holds on the host, counted by hand") {
  // 401 nodes, explicit: the problem and the scheme's copy (3 x 8 B each) and the scheme's 4
  // arrays (no stimulus); the member's config is counted apart (config_bytes).
  const fhn::Config c =
      fhn::test::config_from("domain: {length: 200, dx: 0.5}\ntime: {end: 10, dt: 0.1}\n");
  CHECK(fhn::member_host_bytes(c) == (3 + 3 + 4) * 8 * 401);
  CHECK(fhn::config_bytes(c) > sizeof(fhn::Config));
}
