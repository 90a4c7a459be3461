// Study YAML -> StudyConfig, with the same strictness as run configs.
#include <filesystem>

#include "config/study_config.hpp"
#include "config/yaml_reader.hpp"

namespace fhn {
namespace {

using namespace config_detail;

const NameTable<StudyKind>& study_kind_names() {
  static const NameTable<StudyKind> table{{"convergence", StudyKind::convergence},
                                          {"stability", StudyKind::stability},
                                          {"newton", StudyKind::newton},
                                          {"adaptive", StudyKind::adaptive},
                                          {"work_precision", StudyKind::work_precision}};
  return table;
}

// work_precision: quantity (and probe), reference ({value} or {set, dt, dx}), methods [{label,
// set, dt, dx}], repeats, targets.
void read_work_precision(Section& top, const YAML::Node& root, StudyConfig& st) {
  Context& ctx = top.context();
  st.quantity =
      top.choice("quantity", st.quantity,
                 NameTable<StudyQuantity>{{"spiral_period", StudyQuantity::spiral_period},
                                          {"pulse_speed", StudyQuantity::pulse_speed},
                                          {"field_rmse", StudyQuantity::field_rmse},
                                          {"activation_time", StudyQuantity::activation_time}});
  if (!top.has("quantity"))
    ctx.error("quantity", root.Mark(),
              "missing required key 'quantity' (spiral_period, pulse_speed, field_rmse or "
              "activation_time)");
  st.quantity_where = ctx.where("quantity");
  // probe: x, or [x], [x, y], [x, y, z] (checked against the base's domain when the study runs).
  const bool activation = st.quantity == StudyQuantity::activation_time;
  if (top.has("probe")) {
    if (top.raw("probe").IsSequence())
      st.probe = top.numbers("probe", any_number(), false, "[100.0, 50.0]").value_or(st.probe);
    else
      st.probe = {top.required_number("probe", any_number())};
    st.probe_where = ctx.where("probe");
    if (!activation)
      ctx.error("probe", "probe: only quantity activation_time reads it");
    else if (st.probe.size() > 3)
      ctx.error("probe", "probe: " + std::to_string(st.probe.size()) +
                             " coordinates; a point has at most 3 (x, y, z)");
  } else if (activation) {
    ctx.error("probe", root.Mark(),
              "missing required key 'probe' (quantity activation_time: the point whose first "
              "activation is timed, x on a cable, [x, y] on a sheet, [x, y, z] in a box)");
  }
  const YAML::Node reference = top.raw("reference");
  if (!reference.IsMap()) {
    ctx.error("reference", reference.IsDefined() ? reference.Mark() : root.Mark(),
              "reference: expected {value: <the exact quantity>} or {dt: <a fine time step>, set: "
              "{<the reference's overrides>}}, got " +
                  (reference.IsDefined() ? node_text(reference) : std::string("nothing")));
  } else {
    Section r(ctx, reference, "reference");
    if (r.has("value")) {
      r.forbid("dt", "a reference is a value or a run (dt and set), not both");
      r.forbid("set", "a reference is a value or a run (dt and set), not both");
      if (st.quantity == StudyQuantity::field_rmse)
        ctx.error("reference.value", reference["value"].Mark(),
                  "reference.value: quantity field_rmse compares each run's v at time.end with "
                  "a reference run's; give the run instead, e.g. reference: {dt: 0.001, set: "
                  "{scheme.type: crank_nicolson}}");
      st.reference_exact = r.required_number("value", any_number());
    } else {
      st.reference_dt = r.required_number("dt", positive());
      st.reference_dx = r.number("dx", st.reference_dx, positive());
      st.reference_dt_where = ctx.where("reference.dt") + " (reference.dt)";
      st.reference_dx_where = ctx.where("reference.dx") + " (reference.dx)";
      st.reference_overrides = set_assignments(ctx, r.raw("set"), "reference.set");
    }
  }
  const YAML::Node methods = top.raw("methods");
  if (!methods.IsSequence() || methods.size() == 0) {
    ctx.error("methods", methods.IsDefined() ? methods.Mark() : root.Mark(),
              "methods: expected a list of {label, set: {scheme.type: ...}, dt: [...]}, got " +
                  (methods.IsDefined() ? node_text(methods) : std::string("nothing")));
  } else {
    for (std::size_t i = 0; i < methods.size(); ++i) {
      const std::string path = "methods[" + std::to_string(i) + "]";
      Section m(ctx, methods[i], path);
      WorkMethod method;
      method.label = m.text("label", "");
      if (method.label.empty())
        ctx.error(path, methods[i].Mark(), "missing required key '" + path + ".label' (the name "
                                           "the table and the diagram give the method)");
      for (const WorkMethod& other : st.methods)
        if (other.label == method.label && !method.label.empty())
          ctx.error(path + ".label", path + ".label: '" + method.label + "' names an earlier "
                                                                         "method too");
      method.overrides = set_assignments(ctx, m.raw("set"), path + ".set");
      method.dts = m.numbers("dt", positive(), false, "[0.1, 0.05, 0.025]").value_or(method.dts);
      if (method.dts.empty())
        ctx.error(path, methods[i].Mark(), "missing required key '" + path + ".dt' (the time "
                                           "steps to run the method at, e.g. [0.1, 0.05])");
      method.dxs = m.numbers("dx", positive(), false, "[0.5, 0.25]").value_or(method.dxs);
      method.where = method.dxs.empty() ? ctx.where(path, methods[i].Mark())
                                        : ctx.where(path + ".dx");
      method.dt_where = ctx.where(path + ".dt") + " (" + path + ".dt)";
      method.dx_where = ctx.where(path + ".dx") + " (" + path + ".dx)";
      if (!method.dxs.empty() && !method.dts.empty() && method.dxs.size() != method.dts.size())
        ctx.error(path + ".dx", path + ".dx: " + std::to_string(method.dxs.size()) +
                                    " grid spacings for " + std::to_string(method.dts.size()) +
                                    " time steps; give one dx for each dt (run k takes dt[k] "
                                    "and dx[k])");
      st.methods.push_back(method);
    }
  }
  st.repeats = top.integer("repeats", st.repeats, 1, 100);
  st.targets = top.numbers("targets", {0.0, kInf, true, false}, false, "[1.0e-2, 1.0e-3]")
                   .value_or(st.targets);
}

std::vector<solvers::TridiagonalBackend> read_solvers(Section& s) {
  std::vector<solvers::TridiagonalBackend> result;
  const YAML::Node list = s.raw("solvers");
  if (!list.IsDefined()) return result;
  const std::string path = s.path_of("solvers");
  if (!list.IsSequence()) {
    s.context().error(path, list.Mark(), path + ": expected a list such as [thomas, cusparse], got " +
                                             node_text(list));
    return result;
  }
  std::vector<std::string> names;
  for (const auto& entry : tridiagonal_names()) names.push_back(entry.first);
  for (std::size_t i = 0; i < list.size(); ++i) {
    bool found = false;
    for (const auto& entry : tridiagonal_names()) {
      if (list[i].IsScalar() && list[i].Scalar() == entry.first) {
        result.push_back(entry.second);
        found = true;
      }
    }
    if (!found)
      s.context().error(path, list[i].Mark(),
                        path + "[" + std::to_string(i) + "]: " + node_text(list[i]) +
                            " is not a tridiagonal solver; expected one of: " + join(names));
  }
  return result;
}

StudyConfig read_study(const YAML::Node& root, Context& ctx, const std::string& source) {
  StudyConfig st;
  st.source = source;
  Section top(ctx, root, "");
  st.name = top.text("name", std::filesystem::path(source).stem().string());
  check_output_name(ctx, st.name);
  st.kind = top.choice("study", st.kind, study_kind_names());
  if (!top.has("study"))
    ctx.error("study", root.Mark(), "missing required key 'study' (convergence, stability, newton, "
                                    "adaptive or work_precision)");

  // The base config, relative to the study file.
  const std::string base = top.text("base", "");
  if (base.empty()) {
    ctx.error("base", root.Mark(), "missing required key 'base' (the run config to start from)");
  } else {
    const std::filesystem::path p(base);
    st.base = (p.is_absolute() ? p : std::filesystem::path(source).parent_path() / p).lexically_normal().string();
  }

  st.overrides = set_assignments(ctx, top.raw("set"), "set");

  if (st.kind == StudyKind::convergence) {
    Section r = top.section("refine");
    st.refine = r.text("key", st.refine);
    if (st.refine != "time.dt" && st.refine != "domain.dx")
      ctx.error("refine.key", "refine.key: '" + st.refine + "' cannot be refined; expected time.dt or domain.dx");
    st.start = r.required_number("start", positive());
    st.ratio = r.number("ratio", st.ratio, {1.0, kInf, true, false});
    st.levels = r.integer("levels", st.levels, 2, 20);

    const YAML::Node reference = top.raw("reference");
    if (reference.IsDefined() && reference.IsMap()) {
      Section ref(ctx, reference, "reference");
      st.reference = ReferenceKind::value;
      st.reference_value = ref.required_number("value", positive());
    } else {
      const std::string word = reference.IsDefined() && reference.IsScalar() ? reference.Scalar() : "finest";
      if (word == "finest")
        st.reference = ReferenceKind::finest;
      else if (word == "richardson")
        st.reference = ReferenceKind::richardson;
      else
        ctx.error("reference", reference.Mark(),
                  "reference: " + node_text(reference) +
                      " is not allowed; expected finest, richardson or {value: <a finer " + st.refine + ">}");
    }
    if (st.reference == ReferenceKind::richardson && st.levels < 3)
      ctx.error("refine.levels", "refine.levels: richardson extrapolation needs at least 3 levels");
  } else if (st.kind == StudyKind::adaptive) {
    Section reference = top.section("reference");
    st.dx_divisor = reference.integer("dx_divisor", st.dx_divisor, 1, 1 << 10);
    st.dt_divisor = reference.integer("dt_divisor", st.dt_divisor, 1, 1 << 20);
    st.tolerances = top.numbers("tolerances", {0.0, kInf, true, false}, false, "[1.0e-3, 1.0e-4]")
                        .value_or(st.tolerances);
  } else if (st.kind == StudyKind::stability) {
    Section sweep = top.section("sweep");
    st.ratios = sweep.numbers("ratios", {0.0, kInf, true, false}, false, "[0.5, 1, 2]").value_or(st.ratios);
    if (st.ratios.empty() && ctx.ok())
      ctx.error("sweep", root.Mark(), "missing required key 'sweep.ratios' (values of dt/dx^2)");
    st.solvers = read_solvers(sweep);
    st.end = sweep.number("end", st.end, {0.0, kInf, true, false});
    st.bound = sweep.number("bound", st.bound, {0.0, kInf, true, false});
    st.oscillation_tolerance = sweep.number("oscillation_tolerance", st.oscillation_tolerance, {0.0, kInf, true, false});
  } else if (st.kind == StudyKind::work_precision) {
    read_work_precision(top, root, st);
  } else if (st.kind == StudyKind::newton) {
    Section newton = top.section("newton");
    st.solvers = read_solvers(newton);
    st.steps = newton.integer("steps", st.steps, 1, 1 << 30);
  }
  if (st.kind == StudyKind::convergence || st.kind == StudyKind::adaptive) {
    Section compare = top.section("compare");
    st.times = compare.numbers("times", {0.0, kInf, true, false}, false, "[0.5, 1.0]").value_or(st.times);
    st.norm = compare.choice("norm", st.norm, NameTable<Norm>{{"rmse", Norm::rmse}, {"max", Norm::max}});
  }
  return st;
}

}  // namespace

StudyConfig load_study_text(const std::string& text, const std::string& source) {
  return read_document(text, source, [&](const YAML::Node& root, Context& ctx) {
    return read_study(root, ctx, source);
  });
}

StudyConfig load_study(const std::string& path) {
  return load_study_text(read_text_file(path, "study file"), path);
}

}  // namespace fhn
