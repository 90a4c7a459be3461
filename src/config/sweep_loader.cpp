// Sweep YAML -> SweepConfig, with the same strictness as run configs. The members' own configs
// are built (and validated) by the sweep itself, from the base config and the axis values.
#include <cmath>
#include <filesystem>

#include "config/sweep_config.hpp"
#include "config/yaml_reader.hpp"

namespace fhn {
namespace {

using namespace config_detail;

constexpr index_t kMaxMembers = index_t{1} << 24;

// axes[i].with[k]: {key, values: [...]} (one per value of the axis) or {key, reciprocal: true}
// (1 / the axis's value).
void read_links(Context& ctx, Section& axis_section, const std::string& path, SweepAxis& axis) {
  const YAML::Node with = axis_section.raw("with");
  if (!with.IsDefined()) return;
  if (!with.IsSequence()) {
    ctx.error(path + ".with", with.Mark(), path + ".with: expected a list of {key, values} or {key, reciprocal: true}, got " +
                                               node_text(with));
    return;
  }
  for (std::size_t k = 0; k < with.size(); ++k) {
    const std::string at = path + ".with[" + std::to_string(k) + "]";
    Section s(ctx, with[k], at);
    SweepLink link;
    link.key = s.text("key", "");
    if (link.key.empty()) ctx.error(at, with[k].Mark(), at + ": missing required key 'key' (a numeric config key, e.g. model.tau_w)");
    const bool reciprocal = s.boolean("reciprocal", false);
    if (s.has("values") == reciprocal) {
      ctx.error(at, with[k].Mark(), at + ": give either 'values' (one per value of the axis) or 'reciprocal: true'");
      continue;
    }
    if (reciprocal) {
      for (real x : axis.values) {
        if (x == 0.0) ctx.error(at, with[k].Mark(), at + ": reciprocal: the axis '" + axis.key + "' takes the value 0");
        link.values.push_back(1.0 / x);
      }
    } else {
      link.values = s.numbers("values", any_number(), false, "[10, 5, 2.5]").value_or(link.values);
      if (ctx.ok() && link.values.size() != axis.values.size())
        ctx.error(at, with[k].Mark(), at + ".values: " + std::to_string(link.values.size()) +
                                          " values for the axis's " + std::to_string(axis.values.size()));
    }
    if (link.key == axis.key) ctx.error(at, with[k].Mark(), at + ": key '" + link.key + "' is the axis's own");
    axis.with.push_back(link);
  }
}

// axes[i]: {key, values: [...]} or {key, from, to, count, scale: linear | log}, and with: [...].
SweepAxis read_axis(Context& ctx, const YAML::Node& node, const std::string& path,
                    const std::string& source) {
  SweepAxis axis;
  axis.where = location(source, node.Mark());
  Section s(ctx, node, path);
  axis.key = s.text("key", "");
  if (axis.key.empty())
    ctx.error(path, node.Mark(), path + ": missing required key 'key' (a numeric config key, e.g. model.a)");
  const bool listed = s.has("values");
  const bool ranged = s.has("from") || s.has("to") || s.has("count");
  if (listed && ranged) {
    ctx.error(path, node.Mark(), path + ": give either 'values' or 'from', 'to' and 'count', not both");
    return axis;
  }
  if (listed) {
    axis.values = s.numbers("values", any_number(), false, "[0.01, 0.05, 0.1]").value_or(axis.values);
    read_links(ctx, s, path, axis);
    return axis;
  }
  if (!ranged) {
    ctx.error(path, node.Mark(), path + ": missing the values: 'values: [...]' or 'from', 'to' and 'count'");
    return axis;
  }
  const real from = s.required_number("from", any_number());
  const real to = s.required_number("to", any_number());
  const index_t count = s.integer("count", 0, 1, kMaxMembers);
  if (!s.has("count")) ctx.error(path, node.Mark(), "missing required key '" + path + ".count' (a whole number >= 1)");
  enum class Scale { linear, log };
  const Scale scale = s.choice("scale", Scale::linear,
                               NameTable<Scale>{{"linear", Scale::linear}, {"log", Scale::log}});
  if (scale == Scale::log && (from <= 0.0 || to <= 0.0))
    ctx.error(path, node.Mark(), path + ": a log scale needs from > 0 and to > 0, got from = " +
                                     format_exact(from) + ", to = " + format_exact(to));
  if (!ctx.ok() || count < 1) return axis;
  // value_j = from + j (to - from) / (count - 1), or geometric: from (to / from)^(j / (count - 1)).
  for (index_t j = 0; j < count; ++j) {
    const real f = count == 1 ? 0.0 : static_cast<real>(j) / static_cast<real>(count - 1);
    axis.values.push_back(j == count - 1 && count > 1 ? to
                          : scale == Scale::linear    ? from + f * (to - from)
                                                      : from * std::pow(to / from, f));
  }
  read_links(ctx, s, path, axis);
  return axis;
}

SweepConfig read_sweep(const YAML::Node& root, Context& ctx, const std::string& source) {
  SweepConfig sw;
  sw.source = source;
  Section top(ctx, root, "");
  sw.name = top.text("name", std::filesystem::path(source).stem().string());
  check_output_name(ctx, sw.name);

  // The base config: a file (relative to the sweep file) or embedded under `config:`.
  const std::string base = top.text("base", "");
  const YAML::Node embedded = top.raw("config");
  if (!base.empty() && embedded.IsDefined()) {
    ctx.error("config", embedded.Mark(), "give either 'base' (a config file) or 'config' (an embedded config), not both");
  } else if (!base.empty()) {
    const std::filesystem::path p(base);
    sw.base = (p.is_absolute() ? p : std::filesystem::path(source).parent_path() / p).lexically_normal().string();
  } else if (embedded.IsDefined() && embedded.IsMap()) {
    YAML::Emitter text;
    text << embedded;
    sw.base_text = text.c_str();
  } else if (embedded.IsDefined()) {
    ctx.error("config", embedded.Mark(), "config: expected a run config (a mapping), got " + node_text(embedded));
  } else {
    ctx.error("base", root.Mark(), "missing required key 'base' (the run config to start from) or 'config' (one embedded)");
  }
  sw.overrides = set_assignments(ctx, top.raw("set"), "set");

  const YAML::Node axes = top.raw("axes");
  if (!axes.IsDefined()) {
    ctx.error("axes", root.Mark(), "missing required key 'axes' (a list of {key, values} or {key, from, to, count})");
  } else if (!axes.IsSequence() || axes.size() == 0) {
    ctx.error("axes", axes.Mark(), "axes: expected a non-empty list of {key, values} or {key, from, to, count}, got " +
                                       node_text(axes));
  } else {
    for (std::size_t i = 0; i < axes.size(); ++i) {
      sw.axes.push_back(read_axis(ctx, axes[i], "axes[" + std::to_string(i) + "]", source));
      // Every key, the axes' and the linked ones, is set by one axis only.
      const SweepAxis& added = sw.axes.back();
      std::vector<std::string> keys{added.key};
      for (const SweepLink& link : added.with) keys.push_back(link.key);
      for (const std::string& key : keys)
        for (std::size_t j = 0; j + 1 < sw.axes.size(); ++j) {
          bool taken = sw.axes[j].key == key;
          for (const SweepLink& link : sw.axes[j].with) taken = taken || link.key == key;
          if (!key.empty() && taken)
            ctx.error("axes", axes[i].Mark(), "axes[" + std::to_string(i) + "]: key '" + key +
                                                  "' is already set by axes[" + std::to_string(j) + "]");
        }
    }
  }
  sw.combine = top.choice("combine", sw.combine,
                          NameTable<SweepCombine>{{"product", SweepCombine::product}, {"zip", SweepCombine::zip}});
  if (ctx.ok() && sw.combine == SweepCombine::zip)
    for (const SweepAxis& axis : sw.axes)
      if (axis.values.size() != sw.axes[0].values.size())
        ctx.error("combine", axis.where + ": combine: zip needs axes of equal length; '" + axis.key + "' has " +
                                 std::to_string(axis.values.size()) + " values, '" + sw.axes[0].key + "' " +
                                 std::to_string(sw.axes[0].values.size()));
  if (ctx.ok() && sweep_member_count(sw) > kMaxMembers)
    ctx.error("axes", "axes: " + std::to_string(sweep_member_count(sw)) + " members; at most " +
                          std::to_string(kMaxMembers) + " (split the sweep)");

  Section measure = top.section("measure");
  sw.measure.probes = measure.numbers("probes", non_negative(), false, "[25, 75]").value_or(sw.measure.probes);
  if (measure.has("threshold")) sw.measure.threshold = measure.number("threshold", 0.0, any_number());
  sw.measure.every = measure.number("every", sw.measure.every, non_negative());
  sw.measure.planar = measure.boolean("planar", false);
  if (measure.has("planar")) sw.measure.planar_where = ctx.where("measure.planar");
  if (measure.has("probes")) sw.measure.probes_where = ctx.where("measure.probes");
  if (measure.has("every")) sw.measure.every_where = ctx.where("measure.every");
  if (measure.has("threshold")) sw.measure.threshold_where = ctx.where("measure.threshold");

  Section output = top.section("output");
  const YAML::Node members = output.raw("members");
  if (members.IsDefined()) {
    if (!members.IsSequence()) {
      ctx.error("output.members", members.Mark(), "output.members: expected a list of member indices, e.g. [0, 10], got " +
                                                      node_text(members));
    } else {
      const index_t count = ctx.ok() ? sweep_member_count(sw) : kMaxMembers;
      for (std::size_t i = 0; i < members.size(); ++i) {
        index_t m = -1;
        if (!members[i].IsScalar() || !YAML::convert<index_t>::decode(members[i], m) || m < 0 || m >= count)
          ctx.error("output.members", members[i].Mark(),
                    "output.members[" + std::to_string(i) + "]: expected a member index in [0, " +
                        std::to_string(count - 1) + "], got " + node_text(members[i]));
        else
          sw.output_members.push_back(m);
      }
    }
  }
  sw.batch = top.integer("batch", sw.batch, 0, kMaxMembers);
  return sw;
}

}  // namespace

index_t sweep_member_count(const SweepConfig& sweep) {
  if (sweep.axes.empty()) return 0;
  if (sweep.combine == SweepCombine::zip) {
    for (const SweepAxis& axis : sweep.axes)
      if (axis.values.size() != sweep.axes[0].values.size()) return 0;
    return static_cast<index_t>(sweep.axes[0].values.size());
  }
  index_t count = 1;
  for (const SweepAxis& axis : sweep.axes) {
    count *= static_cast<index_t>(axis.values.size());
    if (count > kMaxMembers) return count;  // reported as too many, without overflowing
  }
  return count;
}

std::vector<index_t> sweep_member_positions(const SweepConfig& sweep, index_t member) {
  std::vector<index_t> positions(sweep.axes.size());
  for (std::size_t a = sweep.axes.size(); a-- > 0;) {
    const auto size = static_cast<index_t>(sweep.axes[a].values.size());
    positions[a] = sweep.combine == SweepCombine::zip ? member : member % size;
    if (sweep.combine == SweepCombine::product) member /= size;
  }
  return positions;
}

std::vector<real> sweep_member_values(const SweepConfig& sweep, index_t member) {
  const std::vector<index_t> positions = sweep_member_positions(sweep, member);
  std::vector<real> values(sweep.axes.size());
  for (std::size_t a = 0; a < sweep.axes.size(); ++a)
    values[a] = sweep.axes[a].values[static_cast<std::size_t>(positions[a])];
  return values;
}

SweepConfig load_sweep_text(const std::string& text, const std::string& source) {
  return read_document(text, source, [&](const YAML::Node& root, Context& ctx) {
    return read_sweep(root, ctx, source);
  });
}

SweepConfig load_sweep(const std::string& path) {
  return load_sweep_text(read_text_file(path, "sweep file"), path);
}

}  // namespace fhn
