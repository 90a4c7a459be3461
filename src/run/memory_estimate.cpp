#include "run/memory_estimate.hpp"

#include <algorithm>
#include <cstddef>

#include "core/cuda_device_select.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/vtk_writers.hpp"
#include "model/problem.hpp"
#include "schemes/member_batch.hpp"

namespace fhn {
namespace {

constexpr real kValue = sizeof(real);  // bytes of one value of v, w, ...

// The arrays of values per node that a scheme allocates on the host for the nodes it owns (the
// class named, src/schemes/), the state v, w included. The adaptive grid counts its worst case,
// every base node kept.
MemoryItem host_scheme_arrays(const Config& c) {
  const bool stimuli = !c.stimulus.empty();
  const bool leapfrog = c.scheme.crank_nicolson.w_update == WUpdate::leapfrog;
  switch (c.scheme.type) {
    case SchemeType::explicit_euler:  // ExplicitCpu: v, w, v_next, w_next (+ current)
      return {
          stimuli ? "v, w, next v, w, stimulus current (5 arrays)" : "v, w, next v, w (4 arrays)",
          stimuli ? 5.0 : 4.0};
    case SchemeType::adaptive_explicit:  // AdaptiveExplicitCpu and its NonUniformLaplacian
      return {std::string("x, v, w, v_xx, w_xx, next v, w, rate, 3 Laplacian weights, node index") +
                  (stimuli ? ", 2 stimulus currents" : "") + " (" + (stimuli ? "14" : "12") +
                  " arrays, every base node kept)",
              stimuli ? 14.0 : 12.0};
    case SchemeType::crank_nicolson:
      if (c.scheme.crank_nicolson.formulation == Formulation::adi)  // AdiCpu, batched Thomas
        return {std::string("v, w, right side, solver workspace") +
                    (stimuli ? ", 2 stimulus currents (6 arrays)" : " (4 arrays)"),
                stimuli ? 6.0 : 4.0};
      // CrankNicolsonCpu: v, w, u, p, rhs, J's 3 diagonals, F, the solver's c' (+ w_prev, current)
      return {std::string("v, w, Newton iterate, p, right side, 3 diagonals, residual, solver "
                          "workspace") +
                  (leapfrog ? ", previous w" : "") + (stimuli ? ", stimulus current" : "") + " (" +
                  std::to_string(10 + (leapfrog ? 1 : 0) + (stimuli ? 1 : 0)) + " arrays)",
              10.0 + (leapfrog ? 1.0 : 0.0) + (stimuli ? 1.0 : 0.0)};
  }
  return {"", 0.0};
}

// Device bytes per node of the CUDA schemes (src/schemes/cuda/): explicit and Crank-Nicolson/
// Newton cables hold the arrays of a sweep member (cuda_bytes_per_node); the ADI scheme v, w, its
// right side and the batched solver's workspace (cuSPARSE: the replicated matrix and a copy of
// its upper diagonal, 4 values; the partitioned solver: about one); on several ranks also the
// transpose's packed blocks and whole lines (2 values).
real device_bytes_per_node(const Config& c, int ranks) {
  if (c.scheme.type == SchemeType::crank_nicolson &&
      c.scheme.crank_nicolson.formulation == Formulation::adi) {
    const bool cusparse =
        c.scheme.crank_nicolson.tridiagonal == solvers::TridiagonalBackend::cusparse ||
        c.scheme.crank_nicolson.tridiagonal == solvers::TridiagonalBackend::cusparse_pivot;
    return (3.0 + (cusparse ? 4.0 : 1.0) + (ranks > 1 ? 2.0 : 0.0)) * kValue;
  }
  return static_cast<real>(cuda_bytes_per_node(c.scheme));
}

// The frames the run writes from t = 0 to time.end (the spacetime image keeps all of them).
real frame_count(const Config& c) {
  return static_cast<real>(c.output.frames_in(c.time.steps));
}

}  // namespace

real MemoryEstimate::host_total() const {
  real total = host_peak_temporary.bytes;
  for (const MemoryItem& item : host) total += item.bytes;
  return total;
}

real MemoryEstimate::device_total() const {
  real total = 0.0;
  for (const MemoryItem& item : device) total += item.bytes;
  return total;
}

MemoryEstimate estimate_run_memory(const Config& c, int ranks, MemoryEstimate* worker) {
  const Domain& d = c.domain;
  const real n = static_cast<real>(d.node_count());
  // The nodes' coordinates: a cable's x per node, a sheet's or box's per axis.
  const real coordinates = d.dims >= 2 ? static_cast<real>(d.nodes[0] + d.nodes[1] +
                                                           (d.dims >= 3 ? d.nodes[2] : 0))
                                       : n;
  // A rank's share of the nodes (the slab's planes; halos are a few planes more).
  const real share = n / static_cast<real>(std::max(ranks, 1));
  const bool cuda = c.scheme.backend == Backend::cuda;
  const bool leapfrog = c.scheme.type == SchemeType::crank_nicolson &&
                        c.scheme.crank_nicolson.formulation == Formulation::newton &&
                        c.scheme.crank_nicolson.w_update == WUpdate::leapfrog;

  // Every process: the Problem (initial v, w and the coordinates) and the scheme's copy of it,
  // then the scheme's arrays over its nodes.
  MemoryEstimate e;
  const real problem = 2.0 * kValue * n + kValue * coordinates;
  e.host.push_back({"the problem: initial v, w and the coordinates", problem});
  e.host.push_back({"the scheme's copy of the problem", problem});
  // The pictures of tissue: and fields: regions, decoded when the config loaded and kept with it
  // (each once, however many regions share it).
  std::vector<const Picture*> pictures;
  auto picture = [&](const TissueRegion& region) {
    const Picture* kept = region.image.get();
    if (kept && std::find(pictures.begin(), pictures.end(), kept) == pictures.end())
      pictures.push_back(kept);
  };
  for (const TissueRegion& region : c.tissue) picture(region);
  for (const FieldSpec& field : c.fields) picture(field.region);
  real picture_bytes = 0.0;
  for (const Picture* p : pictures) picture_bytes += kValue * static_cast<real>(p->values.size());
  if (!pictures.empty())
    e.host.push_back({"the pictures of tissue: and fields: (" + std::to_string(pictures.size()) +
                          ", 8 B per sample), kept with the config",
                      picture_bytes});
  // Per-node parameter fields (make_problem's, counted from the config): values and the mask's
  // bytes per node, in the problem, the scheme's copy and, on the device, over the slab's nodes.
  const FieldArrays fields = field_arrays(c);
  const real field_bytes =
      kValue * static_cast<real>(fields.values) + (fields.mask ? 1.0 : 0.0);
  std::string field_arrays =
      fields.values > 0 ? std::to_string(fields.values) + " parameter arrays" : "";
  if (fields.mask)
    field_arrays += (field_arrays.empty() ? "" : " and ") + std::string("the node-type mask");
  if (field_bytes > 0.0)
    e.host.push_back({"per-node parameter fields (" + field_arrays +
                          ") in the problem and the scheme's copy",
                      2.0 * field_bytes * n});
  if (cuda) {
    const real per_node = device_bytes_per_node(c, ranks);
    e.device.push_back(
        {"scheme arrays on the device (" + format_exact(per_node) + " B per node)",
         per_node * share});
    if (field_bytes > 0.0)
      e.device.push_back({"per-node parameter fields on the device (" + field_arrays + ", " +
                              format_exact(field_bytes) + " B per node)",
                          field_bytes * share});
  } else {
    const MemoryItem arrays = host_scheme_arrays(c);
    e.host.push_back({"scheme: " + arrays.what, arrays.bytes * kValue * share});
    // The explicit scheme's slabs keep their parts of the per-node arrays (halo rows aside).
    if (ranks > 1 && fields.values > 0)
      e.host.push_back({"the slab's parts of the " + std::to_string(fields.values) +
                            " per-node parameter arrays",
                        kValue * static_cast<real>(fields.values) * share});
  }
  // The explicit scheme's and ADI's quadrant bytes (model/tissue.hpp), where they hold them.
  if (fields.quadrants)
    (cuda ? e.device : e.host).push_back({"the quadrant bytes of a sheet with fields (1 B per node)",
                                          share});
  // ADI on a sheet with fields: every node's row in its lines along x and y (adi_setup.hpp), on
  // the host and, for CUDA, on the device too.
  if (fields.quadrants && c.scheme.type == SchemeType::crank_nicolson &&
      c.scheme.crank_nicolson.formulation == Formulation::adi) {
    const MemoryItem rows{"ADI: each node's rows along x and y (6 values per node)", 6.0 * kValue * share};
    e.host.push_back(rows);
    if (cuda) e.device.push_back(rows);
  }
  // The activation times the scheme records at every step (first, and last when kept), on the
  // device or the host, and the step's old v that a scheme keeping none copies before the step
  // (all but the explicit one: HostScheme, AdiCuda).
  const bool recording = d.dims >= 2 && c.output.activation.enabled;
  const real times = c.output.activation.last ? 2.0 : 1.0;
  if (recording) {
    const bool explicit_scheme = c.scheme.type == SchemeType::explicit_euler;
    (cuda ? e.device : e.host)
        .push_back({"activation times recorded at every step" +
                        std::string(explicit_scheme ? "" : ", and v before each step"),
                    (times + (explicit_scheme ? 0.0 : 1.0)) * kValue * share});
  }
  if (worker) *worker = e;

  // The process that writes (one process, or rank 0): the time loop's frame (x, v, w), and what
  // the writers keep.
  e.host.push_back({"the frame being written: x, v, w", 2.0 * kValue * n + kValue * coordinates});
  if (c.output.ecg.enabled())  // its own snapshot where no frame falls on its sample's step
    e.host.push_back({"the pseudo-ECG's snapshot: v, w", 2.0 * kValue * n});
  if (d.dims == 1 && c.output.spacetime) {
    // SpacetimeWriter: v at up to kSpacetimeColumns columns, every frame of the run.
    const real stride =
        std::max<real>(1.0, std::ceil((n - 1.0) / static_cast<real>(kSpacetimeColumns - 1)));
    const real columns = std::floor((n - 1.0) / stride) + 1.0;
    e.host.push_back({"spacetime.vti: " + format_exact(frame_count(c)) + " frames x " +
                          format_exact(columns) + " columns kept until the end",
                      kValue * columns * frame_count(c)});
  }
  if (recording)
    e.host.push_back({"activation.vti: the frame's copy of the activation times and the map's",
                      2.0 * times * kValue * n});

  // The largest temporary: a checkpoint (the saved state, its payload and the file's content:
  // three copies of v, w and what else is saved), or a VTK frame (copies of v, w at the output
  // precision, and a cable's points, 3 x 8 B, and line cells, 2 x 8 B + 8 B offset + 1 B type;
  // VTK compresses block by block, which adds little).
  real saved = (leapfrog ? 3.0 : 2.0) + (recording ? times : 0.0);
  if (c.scheme.type == SchemeType::adaptive_explicit) saved += 1.0;  // the node list
  const real checkpoint = 3.0 * saved * kValue * n;
  real kept = 1.0;
  for (int a = 0; a < d.dims; ++a)
    kept *=
        std::floor(static_cast<real>(d.nodes[a] - 1) / static_cast<real>(c.output.stride)) + 1.0;
  const real value = c.output.precision == Precision::float64 ? 8.0 : 4.0;
  // A sheet with a mask also writes its "tissue" array, a byte per kept node; with output.phase
  // the phase at every node and its kept values.
  const real frame =
      c.output.vtk ? kept * (2.0 * value + (d.dims == 1 ? 49.0 : 0.0) + (fields.mask ? 1.0 : 0.0)) +
                         (c.output.phase ? kValue * n + kept * value : 0.0)
                   : 0.0;
  e.host_peak_temporary =
      checkpoint >= frame
          ? MemoryItem{"a checkpoint being written (3 copies of the saved state)", checkpoint}
          : MemoryItem{"a VTK frame being written", frame};
  return e;
}

std::vector<std::string> describe_run_memory(const Config& c, int ranks) {
  const MemoryEstimate e = estimate_run_memory(c, ranks);
  std::vector<std::string> lines;
  const AvailableMemory available = available_host_memory();
  lines.push_back(
      "host memory: " + human_bytes(e.host_total()) + " at most" + (ranks > 1 ? " on rank 0" : "") +
      (available.bytes >= 0.0
           ? "; " + human_bytes(available.bytes) + " available here (" + available.source + ")"
           : std::string()));
  for (const MemoryItem& item : e.host)
    lines.push_back("  " + human_bytes(item.bytes) + "  " + item.what);
  lines.push_back("  " + human_bytes(e.host_peak_temporary.bytes) + "  " +
                  e.host_peak_temporary.what);
  if (!e.device.empty()) {
    lines.push_back("device memory: " + human_bytes(e.device_total()) +
                    (ranks > 1 ? " per rank" : ""));
    for (const MemoryItem& item : e.device)
      lines.push_back("  " + human_bytes(item.bytes) + "  " + item.what);
  }
  return lines;
}

real config_bytes(const Config& c) {
  // A string's heap buffer beyond the short-string capacity (15 in libstdc++), a map node's
  // links and colour (32 B) besides its pair.
  auto text = [](const std::string& s) {
    return s.capacity() > 15 ? static_cast<real>(s.capacity() + 1) : 0.0;
  };
  real bytes = sizeof(Config) + text(c.name) + text(c.source);
  for (const std::string& note : c.notes) bytes += sizeof(std::string) + text(note);
  for (const std::string& warning : c.warnings) bytes += sizeof(std::string) + text(warning);
  for (const auto& [key, where] : c.locations)
    bytes += 32.0 + sizeof(std::pair<const std::string, std::string>) + text(key) + text(where);
  bytes += static_cast<real>(c.stimulus.capacity() * sizeof(Stimulus) +
                             c.output.probes.capacity() * sizeof(Point));
  return bytes;
}

real member_host_bytes(const Config& c) {
  MemoryEstimate member;
  estimate_run_memory(c, 1, &member);
  return member.host_total();
}

void check_run_fits(const Config& c, int ranks, int host_processes, bool check_device) {
  MemoryEstimate worker;
  const MemoryEstimate e = estimate_run_memory(c, ranks, &worker);
  const real host =
      e.host_total() + static_cast<real>(std::max(host_processes, 1) - 1) * worker.host_total();
  const std::string what =
      c.domain.summary() + ", " +
      (ranks > 1 ? std::to_string(ranks) + " ranks" : std::string("one process"));
  check_host_memory(host, "the run (" + what + ")",
                    "`fhn validate` itemises the estimate; a coarser domain.dx, a smaller domain "
                    "(" + c.where("domain") + "), more ranks on more machines or another "
                    "machine would fit");
  if (!check_device || c.scheme.backend != Backend::cuda) return;
  std::size_t free_bytes = 0, total_bytes = 0;
  if (!cuda_memory_info(free_bytes, total_bytes)) return;  // no device: the scheme says why
  if (e.device_total() > static_cast<real>(free_bytes))
    throw DeviceError("the run needs about " + human_bytes(e.device_total()) +
                      " of device memory (" + what + ") but the CUDA device has " +
                      human_bytes(static_cast<real>(free_bytes)) + " free of " +
                      human_bytes(static_cast<real>(total_bytes)) +
                      "; refused before allocating it. A coarser domain.dx, a smaller domain or "
                      "more ranks (one GPU each) would fit");
}

}  // namespace fhn
