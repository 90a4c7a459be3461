#pragma once
// A parameter sweep (fhn sweep SWEEP.yaml): a base run config (a file or embedded), overrides
// for every member, and the axes: config keys with the values they take. The members are the
// full product of the axes (or the axes zipped), each a Config of its own, run in lockstep.
// configs/sweeps/README.md documents every key.
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/loader.hpp"

namespace fhn {

// A key that moves with an axis: the member that takes the axis's j-th value takes its j-th
// value too (Winfree's eps is model.tau_v = eps with model.tau_w = 1 / eps).
struct SweepLink {
  std::string key;
  std::vector<real> values;  // as many as the axis's
};

// One axis: a numeric config key (as --set spells it, e.g. model.a or stimulus[1].start) and
// its values, in the order the members take them, with the keys linked to it.
struct SweepAxis {
  std::string key;
  std::vector<real> values;
  std::vector<SweepLink> with;
  std::string where;  // file:line:column of the axis, for messages about its members
};

enum class SweepCombine { product, zip };

// What is measured at the probes of every member (sweep.csv's columns).
struct SweepMeasure {
  std::vector<real> probes;  // positions x along the cable; default: L/4 and 3L/4
  // v crossing upwards: an activation; downwards: its end (APD). Unset: the level of the
  // members' kinetics form (its levels().v, kinetics/).
  std::optional<real> threshold;
  real every = 0.0;          // time between samples of the probes; 0 (default): every step
  // Sheets: also run each member's planar pulse (a cable of its medium, sweep/planar.hpp).
  bool planar = false;
  // file:line:column of the keys, for later checks; empty where the key is not given
  std::string probes_where, every_where, threshold_where, planar_where;
};

struct SweepConfig {
  std::string name;
  std::string source;
  std::string base;           // path of the base config (resolved); empty when embedded
  std::string base_text;      // the embedded config (YAML text) when there is no base file
  std::vector<Override> overrides;     // "key=value" for every member (set:)
  std::vector<SweepAxis> axes;
  SweepCombine combine = SweepCombine::product;
  SweepMeasure measure;
  std::vector<index_t> output_members;  // members that also write probes.csv and frames
  index_t batch = 0;          // members advanced together (0: as many as fit the device)
};

SweepConfig load_sweep(const std::string& path);
SweepConfig load_sweep_text(const std::string& text, const std::string& source);

// The number of members the axes make (product or zip; 0 when the axes disagree in zip).
index_t sweep_member_count(const SweepConfig& sweep);
// Member m's position on each axis: it takes values[j] (and with[*].values[j]) of axis a, j =
// out[a] (product: the last axis varies fastest).
std::vector<index_t> sweep_member_positions(const SweepConfig& sweep, index_t member);
// Member m's axis values, one per axis.
std::vector<real> sweep_member_values(const SweepConfig& sweep, index_t member);

}  // namespace fhn
