// What a sweep writes (`fhn sweep`): sweep.csv (header and rows), summary.json, run.log (the
// root's; the other ranks' lines gathered into it), the output folder with config.yaml, and the
// files of the members named in output.members (fhn run's of their configs).
#include "sweep/write.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "config/loader.hpp"
#include "config/names.hpp"
#include "core/build_info.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "model/problem.hpp"
#include "parallel/communicator.hpp"
#include "study/activation.hpp"

namespace fs = std::filesystem;

namespace fhn::sweep_detail {
namespace {

// A sheet's tip columns, in the order of their cells (tip_cells).
constexpr const char* kTipColumns[] = {"class",      "tips_at_end",    "frames_with_tips",
                                       "rotation_period", "turns",    "period",
                                       "radius",     "drift_speed",    "meander_frequency",
                                       "meander_ratio"};

std::string csv_number(real x) { return std::isfinite(x) ? format_exact(x) : ""; }

std::string csv_text(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch == '\n' ? ' ' : ch;
  }
  return out + "\"";
}

}  // namespace

std::string sweep_csv_header(const SweepConfig& sweep, const SweepPlan& plan) {
  std::string text = "member";
  for (const SweepAxis& axis : sweep.axes) text += "," + axis.key;
  text += ",status";
  if (plan.sheet) {
    for (const char* column : kTipColumns) text += std::string(",") + column;
    if (plan.planar) text += ",planar_propagated,planar_speed";
  } else {
    text += ",speed,last_speed,propagated";
    for (const char* what : {"pulses", "activation", "apd"})
      for (real x : plan.probes) text += std::string(",") + what + "@" + format_exact(x);
  }
  text += ",final_max_v";
  if (plan.newton) text += ",newton_mean_iterations,newton_max_iterations";
  return text + ",reason\n";
}

namespace {

// A sheet member's tip columns (empty cells for a failed member, whose tips are not measured).
std::string tip_cells(const MemberRow& r) {
  if (!r.tips) return std::string(std::size(kTipColumns), ',');  // empty cells
  const MemberTips& t = *r.tips;
  const TipPathAnalysis& p = t.path;
  auto cell = [](const std::optional<real>& x) { return "," + (x ? csv_number(*x) : std::string()); };
  return "," + p.kind + "," + std::to_string(t.at_end) + "," + std::to_string(t.frames_with_tips) +
         cell(t.rotation.period) + "," + csv_number(p.turns) + cell(p.period) + cell(p.radius) +
         cell(p.drift_speed) + cell(p.meander_frequency) + cell(p.meander_ratio);
}

}  // namespace

std::vector<PropagationEdge> propagation_edges(std::vector<PropagationPoint> points) {
  // Sorted by the other axes' values, then by the first axis's (a lexicographic order with the
  // first value last).
  auto key = [](const PropagationPoint& p) {
    std::vector<real> k(p.values.begin() + 1, p.values.end());
    k.push_back(p.values.front());
    return k;
  };
  std::sort(points.begin(), points.end(),
            [&](const PropagationPoint& a, const PropagationPoint& b) { return key(a) < key(b); });
  std::vector<PropagationEdge> edges;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const PropagationPoint &a = points[i - 1], &b = points[i];
    const bool same_line = std::equal(a.values.begin() + 1, a.values.end(), b.values.begin() + 1);
    if (!same_line || a.propagated == b.propagated) continue;
    edges.push_back({std::vector<real>(a.values.begin() + 1, a.values.end()), a.values.front(),
                     b.values.front(), b.propagated});
  }
  return edges;
}

std::string sweep_csv_rows(const std::vector<MemberRow>& rows, const SweepPlan& plan) {
  const std::vector<real>& probes = plan.probes;
  std::string text;
  for (const MemberRow& r : rows) {
    if (!r.done) continue;
    if (r.taken) {
      text += r.taken->line + "\n";
      continue;
    }
    text += std::to_string(r.member);
    for (real v : r.values) text += "," + format_exact(v);
    text += "," + r.status;
    if (plan.sheet) {
      text += tip_cells(r);
      if (plan.planar)  // empty cells for a member without a start or whose cable failed
        text += r.planar ? std::string(r.planar->propagated ? ",1," : ",0,") + csv_number(r.planar->speed)
                         : std::string(",,");
    } else {
      text += "," + csv_number(r.measured.speed()) + "," + csv_number(r.measured.last_speed()) + "," +
              (r.measured.propagated() ? "1" : "0");
      for (std::size_t p = 0; p < probes.size(); ++p) text += "," + std::to_string(r.measured.pulses(p));
      for (std::size_t p = 0; p < probes.size(); ++p) text += "," + csv_number(r.measured.first_activation(p));
      for (std::size_t p = 0; p < probes.size(); ++p) text += "," + csv_number(r.measured.apd(p));
    }
    text += "," + csv_number(r.max_v);
    if (plan.newton)
      text += "," + csv_number(r.newton_mean) + "," + (r.newton_max >= 0 ? std::to_string(r.newton_max) : "");
    text += "," + (r.reason.empty() ? std::string() : csv_text(r.reason)) + "\n";
  }
  return text;
}

namespace {

// The lines of `text` (without their newlines).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The cells of a CSV line split at every comma (a quoted reason, the last cell, may hold
// commas: the cells before it are whole).
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
  return out;
}

// The member number that begins a sweep.csv or finished.csv line; -1 when it is none of the
// sweep's `count` members (a line edited by hand).
index_t member_of_line(const std::string& line, index_t count) {
  const std::size_t comma = line.find(',');
  if (comma == std::string::npos) return -1;
  index_t m = -1;
  const char* end = line.data() + comma;
  const auto parsed = std::from_chars(line.data(), end, m);
  return parsed.ec == std::errc() && parsed.ptr == end && m >= 0 && m < count ? m : -1;
}

// The text of `file`, "" when there is no such regular file (a fresh folder).
std::string text_if_any(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return "";
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

MemberDigests::MemberDigests(const SweepConfig& sweep, const SweepPlan& plan)
    : sweep_(sweep), plan_(plan), digests_(static_cast<std::size_t>(plan.count)) {}

const std::string& MemberDigests::of(index_t m) {
  std::string& digest = digests_.at(static_cast<std::size_t>(m));
  if (digest.empty()) {
    std::string measured = "\nsampled every " + std::to_string(plan_.sample_every) + " steps at";
    for (real x : plan_.probes) measured += " " + format_exact(x);
    if (sweep_.measure.threshold) measured += ", threshold " + format_exact(*sweep_.measure.threshold);
    if (plan_.planar) measured += ", planar pulse";
    digest = hex_digest(to_yaml(plan_.configs.at(static_cast<std::size_t>(m))) + measured);
  }
  return digest;
}

std::string finished_csv(const std::string& row_lines, MemberDigests& digests) {
  std::string text = "member,digest\n";
  for (const std::string& line : lines_of(row_lines)) {
    const std::string member = line.substr(0, line.find(','));
    text += member + "," + digests.of(std::stoll(member)) + "\n";
  }
  return text;
}

std::string finished_lines(const SweepConfig& sweep, const SweepPlan& plan, const fs::path& dir,
                           MemberDigests& digests) {
  const std::vector<std::string> finished = lines_of(text_if_any(dir / "finished.csv"));
  const std::vector<std::string> rows = lines_of(text_if_any(dir / "sweep.csv"));
  std::string header = sweep_csv_header(sweep, plan);
  header.pop_back();  // its newline
  if (finished.empty() || rows.empty() || rows.front() != header) return "";
  std::map<index_t, const std::string*> row_of;
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (const index_t m = member_of_line(rows[i], plan.count); m >= 0) row_of[m] = &rows[i];
  std::map<index_t, std::string> taken;
  for (std::size_t i = 1; i < finished.size(); ++i) {
    const index_t m = member_of_line(finished[i], plan.count);
    const auto row = row_of.find(m);
    if (m >= 0 && row != row_of.end() &&
        finished[i].substr(finished[i].find(',') + 1) == digests.of(m))
      taken[m] = *row->second + "\n";
  }
  std::string text;
  for (const auto& entry : taken) text += entry.second;
  return text;
}

std::map<index_t, TakenRow> taken_rows(const std::string& lines, const SweepConfig& sweep,
                                       const SweepPlan& plan) {
  const std::vector<std::string> header = cells_of(sweep_csv_header(sweep, plan));
  auto at = [&](const char* name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t status = at("status"), propagated = at("propagated"), kind = at("class");
  std::map<index_t, TakenRow> out;
  for (const std::string& line : lines_of(lines)) {
    const std::vector<std::string> cells = cells_of(line);
    TakenRow row;
    row.line = line;
    if (status < cells.size()) row.status = cells[status];
    row.propagated = propagated < cells.size() && cells[propagated] == "1";
    if (kind < cells.size()) row.kind = cells[kind];
    out[member_of_line(line, plan.count)] = row;
  }
  return out;
}

std::unique_ptr<MemberOutput> open_member_output(const fs::path& dir, index_t m, const Config& c,
                                                 const Problem& problem, MemberBatch& batch,
                                                 index_t local) {
  auto out = std::make_unique<MemberOutput>();
  out->member = m;
  out->config = &c;
  out->dir = dir;
  write_file_atomically(dir / "config.yaml", to_yaml(c));
  if (c.output.vtk) out->sinks.push_back(make_vtk_series_writer(dir, c.name, c.output.precision, c.output.stride, -1.0, frame_phase(c)));
  if (c.output.spacetime)
    out->sinks.push_back(make_spacetime_writer(dir / "spacetime.vti", kSpacetimeColumns));
  if (!c.output.probes.empty()) {
    // As fhn run's probes (run/run.cpp): the stencils keep the tissue mask.
    out->probes.emplace(problem.domain, c.output.probes, problem.fields.outside_mask());
    out->probes_csv = std::make_unique<ProbesCsv>(dir / "probes.csv", c.output.probes, c.domain.dims, false);
  }
  if (c.output.restitution.enabled)
    out->restitution = std::make_unique<RestitutionTracker>(
        c.output.probes, c.domain.dims, c.output.activation.threshold, c.output.restitution.level);
  if (c.domain.dims > 1 && c.output.activation.enabled) {
    batch.record_activation(local, c.output.activation.threshold, c.output.activation.last);
    out->sinks.push_back(make_activation_writer(dir / "activation.vti", c.domain,
                                                c.output.activation.threshold, c.output.activation.last));
  }
  return out;
}

void write_member_frame(MemberOutput& out, const MemberBatch& batch, index_t local) {
  if (out.sinks.empty()) return;  // nothing to write (a sheet's tips.csv comes from its tracker)
  Snapshot snap;
  batch.snapshot(local, snap);
  const FrameView view = frame_view(snap, out.frames++);
  for (auto& sink : out.sinks) sink->write(view);
}

void sample_member_probes(MemberOutput& out, const MemberBatch& batch, index_t local, index_t step) {
  if (!out.probes) return;
  out.probes->read(batch, local);
  const real t = out.config->time.grid().t(step);
  out.probes_csv->write(t, out.probes->v(), out.probes->w());
  if (out.restitution) out.restitution->add(t, out.probes->v());
}

void finish_member_output(MemberOutput& out) {
  for (auto& sink : out.sinks) sink->finish();
  if (out.restitution) out.restitution->write(out.dir);
}

void SweepLog::gather(Communicator& comm) {
  const std::vector<std::string> held = comm.gather(held_);
  for (std::size_t r = 1; r < held.size(); ++r) {
    std::istringstream in(held[r]);
    for (std::string text; std::getline(in, text);) line("rank " + std::to_string(r) + ": " + text);
  }
}

void open_sweep_outputs(const SweepConfig& sweep, const SweepOptions& options,
                        const SweepPlan& plan, Communicator& comm, const fs::path& dir,
                        std::optional<OutputFolder>& folder, SweepLog& log) {
  const std::vector<Config>& configs = plan.configs;
  const Config& c0 = configs.at(0);
  const index_t count = plan.count;
  const index_t total_steps = plan.total_steps;
  const index_t sample_every = plan.sample_every;
  std::string failure;
  if (comm.root()) {
    try {
      folder.emplace(dir);
      // Replaces no file fhn did not write, nor a picture the members read.
      std::vector<std::string> outputs{"config.yaml", "run.log", "sweep.csv", "finished.csv",
                                      "summary.json"};
      if (!sweep.output_members.empty()) outputs.push_back("members/");
      if (options.bench_members > 0) outputs.push_back("bench/");
      folder->claim(outputs, input_files(c0));
      for (index_t m : sweep.output_members)
        create_folder(dir / "members" / std::to_string(m), "the member's output folder");
      // A sweep that continues an earlier one's finished members (finished.csv) adds to its log.
      log.open(dir / "run.log", fs::exists(dir / "finished.csv"));
      log.line(build_line());
      log.line("sweep: " + sweep.source + " (base: " + (sweep.base.empty() ? "embedded" : sweep.base) + ")");
      for (const SweepAxis& axis : sweep.axes) {
        std::string linked;
        for (const SweepLink& link : axis.with) linked += (linked.empty() ? " (with " : ", ") + link.key;
        log.line("axis " + axis.key + ": " + std::to_string(axis.values.size()) + " values from " +
                 format_exact(axis.values.front()) + " to " + format_exact(axis.values.back()) +
                 (linked.empty() ? "" : linked + ")"));
      }
      log.line("members: " + std::to_string(count) + " (" +
               (sweep.combine == SweepCombine::product ? "product" : "zip") + " of the axes)");
      for (const std::string& o : options.overrides) log.line("override: --set " + o);
      // The members' config warnings (a stimulus that acts only after time.end), once.
      const auto warned = std::find_if(configs.begin(), configs.end(),
                                       [](const Config& m) { return !m.warnings.empty(); });
      if (warned != configs.end()) {
        const auto members = std::count_if(configs.begin(), configs.end(),
                                           [](const Config& m) { return !m.warnings.empty(); });
        const std::string line =
            "member " + std::to_string(warned - configs.begin()) + ": " + warned->warnings.front() +
            (members > 1 ? " (" + std::to_string(members) + " members have warnings)" : "");
        log.line("warning: " + line);
        if (!options.quiet) std::fprintf(stderr, "fhn: warning: %s\n", line.c_str());
      }
      log.line("grid: " + c0.domain.summary() + "; time: dt = " + format_exact(c0.time.dt) + ", " +
               std::to_string(total_steps) + " steps; " + (plan.sheet ? "tips found" : "probes sampled") +
               " every " + std::to_string(sample_every) + " steps");
      log.line("ranks: " + std::to_string(comm.size()) + " (" + comm.describe() + ")");
      for (int r = 0; r < comm.size(); ++r) {
        const Range range = split_range(count, r, comm.size());
        log.line("rank " + std::to_string(r) + ": " +
                 (range.count > 0 ? "members " + std::to_string(range.first) + ".." + std::to_string(range.end() - 1)
                                  : std::string("no members")));
      }
      write_file_atomically(dir / "config.yaml", to_yaml(c0));
    } catch (const std::exception& e) {  // IoError, or std::filesystem's own
      failure = e.what();
    }
  }
  comm.broadcast(failure, 0);
  if (!failure.empty()) throw IoError(failure);
}

JsonObject sweep_summary(const SweepConfig& sweep, const SweepPlan& plan, const SweepTotals& totals,
                         const std::string& scheme_name, double wall_seconds, int ranks) {
  const Config& c0 = plan.configs.at(0);
  const index_t count = plan.count;
  const index_t total_steps = plan.total_steps;
  const real member_steps = static_cast<real>(count) * static_cast<real>(total_steps);

  JsonObject s;
  s.add("name", sweep.name)
      .add("status", totals.finished < count ? "interrupted"
                     : totals.failed == 0    ? "ok"
                                             : "some_members_failed")
      .add("members", count)
      .add("finished", totals.finished)
      .add("taken_over", totals.taken)
      .add("failed", totals.failed);
  if (plan.sheet) {
    JsonObject kinds;  // members per class of their tip path
    for (std::size_t k = 0; k < std::size(kTipPathKinds); ++k) kinds.add(kTipPathKinds[k], totals.kinds.at(k));
    s.add("classes", kinds);
  } else {
    s.add("propagated", totals.propagated);
  }
  s.add("scheme", name_of(scheme_type_names(), c0.scheme.type))
      .add("backend", name_of(backend_names(), c0.scheme.backend))
      .add("description", scheme_name)
      .add("nodes", c0.domain.node_count())
      .add("dt", c0.time.dt)
      .add("steps", total_steps)
      .add("batches", totals.all_batches)
      .add("members_per_batch", totals.largest_batch)
      .add("wall_seconds", wall_seconds)
      .add("step_seconds", totals.slowest)
      .add("config_seconds", totals.config_seconds)
      .add("setup_seconds", totals.setup)
      .add("measure_seconds", totals.measure)
      .add("member_steps_per_second", totals.slowest > 0 ? member_steps / totals.slowest : 0.0)
      .add("ns_per_node_step",
           1e9 * totals.slowest / (member_steps * static_cast<real>(c0.domain.node_count())))
      .add("ranks", ranks);
  // Per rank ("0": the root): its members, batches and stepping time.
  JsonObject per_rank;
  for (int r = 0; r < ranks; ++r) {
    const Range range = split_range(count, r, ranks);
    const real* numbers = &totals.per_rank_numbers[kRankNumbers * static_cast<std::size_t>(r)];
    JsonObject one;
    one.add("first_member", range.first)
        .add("members", range.count)
        .add("batches", static_cast<index_t>(numbers[1]))
        .add("step_seconds", numbers[0]);
    per_rank.add(std::to_string(r), one);
  }
  s.add("per_rank", per_rank);
  if (!plan.sheet) {
    // Where propagation switches along the first axis: each edge's failing and propagating
    // values (their order gives the direction) and the other axes' values.
    std::vector<JsonObject> edges;
    for (const PropagationEdge& e : totals.edges) {
      JsonObject edge;
      for (std::size_t a = 1; a < sweep.axes.size(); ++a) edge.add(sweep.axes[a].key, e.others[a - 1]);
      edge.add("failing", e.propagates_above ? e.below : e.above)
          .add("propagating", e.propagates_above ? e.above : e.below);
      edges.push_back(edge);
    }
    JsonObject propagation;
    propagation.add("key", sweep.axes[0].key)
        .add("smallest_propagating", totals.smallest_propagating)
        .add("largest_propagating", totals.largest_propagating)
        .add("edges", edges);
    s.add("propagation", propagation);
  }
  return s;
}

}  // namespace fhn::sweep_detail
