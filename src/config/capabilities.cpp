// The capability table (config/capabilities.hpp): the rules that refuse a combination, in the
// order they are reported, its markdown for configs/README.md, and its key of a Config
// (config/capability_key.hpp).
#include "config/capabilities.hpp"

#include <algorithm>
#include <utility>

#include "config/capability_key.hpp"
#include "config/names.hpp"
#include "core/error.hpp"

namespace fhn::capability {
namespace {

// The scheme as messages name it: "explicit", "crank_nicolson (formulation adi)".
std::string scheme_kind(Scheme scheme) {
  switch (scheme) {
    case Scheme::explicit_euler:
      return name_of(scheme_type_names(), SchemeType::explicit_euler);
    case Scheme::adaptive_explicit:
      return name_of(scheme_type_names(), SchemeType::adaptive_explicit);
    case Scheme::crank_nicolson:
    case Scheme::adi:
      break;
  }
  const Formulation formulation =
      scheme == Scheme::adi ? Formulation::adi : Formulation::newton;
  return name_of(scheme_type_names(), SchemeType::crank_nicolson) + " (formulation " +
         name_of(formulation_names(), formulation) + ")";
}

std::string backend_name(Backend backend) {
  return name_of(backend_names(), backend == Backend::cuda ? fhn::Backend::cuda : fhn::Backend::cpu);
}

const char* dimension_name(Dimension dimension) {
  return dimension == Dimension::cable ? "cable" : dimension == Dimension::sheet ? "sheet" : "box";
}

// What a scheme reads of the medium: nothing but uniform parameters and an isotropic D; also a
// tissue mask and per-node D and kinetics parameters; also an anisotropic tensor.
enum class Reads { uniform, isotropic, all };

// On a sheet the explicit scheme reads all of the medium in one process (CPU and CUDA) and on
// the CPU's slabs; ADI all but the tensor, in one process. Every other scheme, the CUDA and ADI
// slabs and the member batches read none of it.
Reads reads(const Key& k) {
  if (k.dimension != Dimension::sheet) return Reads::uniform;
  if (k.scheme == Scheme::explicit_euler &&
      (k.mode == Mode::one_process || (k.mode == Mode::slabs && k.backend == Backend::cpu)))
    return Reads::all;
  if (k.scheme == Scheme::adi && k.mode == Mode::one_process) return Reads::isotropic;
  return Reads::uniform;
}

// Slabs over ranks: the explicit scheme and ADI on a sheet or a box (rows, z planes), and
// Crank-Nicolson/Newton on a cable (the Newton systems solved across the ranks), on both backends.
bool runs_on_slabs(const Key& k) {
  if (k.dimension == Dimension::cable) return k.scheme == Scheme::crank_nicolson;
  return k.scheme == Scheme::explicit_euler || k.scheme == Scheme::adi;
}

// What the sweep's members cannot be (config keys that are not swept).
const std::string kSweepsRun =
    "sweeps run cables and sheets (domain.length: one or two numbers) of a uniform medium: a "
    "sweep does not take tissue:, fields:, anisotropy: or boxes. fhn run runs such a config, one "
    "at a time (configs/README.md, tissue:, says which schemes read it)";

// The medium refusals: a member batch reads no medium; otherwise what `reads` leaves out.
void refuse_medium(const Key& k, std::vector<Refusal>& out) {
  const Medium& m = k.medium;
  if (m.uniform()) return;
  if (k.mode == Mode::members) {
    const std::string key = m.mask ? "tissue" : m.per_node ? "fields" : "anisotropy";
    out.push_back({key, "the base config has " + key + ":; " + kSweepsRun});
    return;
  }
  const Reads read = reads(k);
  if (read == Reads::all) return;
  const std::string scheme = scheme_kind(k.scheme) + " on the " + backend_name(k.backend) +
                             " backend" + (k.mode == Mode::slabs ? " over several ranks" : "");
  if (read == Reads::isotropic) {
    if (m.tensor)
      out.push_back({"anisotropy",
                     "anisotropic diffusion is not supported by " + scheme +
                         ": its line solves take the second differences along x and along y "
                         "implicitly, and the tensor's mixed term D_xy couples the lines (the "
                         "reasons in configs/README.md, anisotropy); run it with scheme.type: "
                         "explicit"});
    return;
  }
  std::string what;
  const auto add = [&](const std::string& part) { what += (what.empty() ? "" : ", ") + part; };
  if (m.per_node) add(m.parameters.empty() ? "fields:" : m.parameters);
  if (m.mask) add("a tissue mask (tissue:)");
  if (m.tensor) add("anisotropic diffusion (anisotropy:)");
  out.push_back({"", "per-node parameters (" + what + ") are not supported by " + scheme +
                         " yet: its kernels read one value of each parameter, the same at every "
                         "node, and an isotropic D; a sheet with tissue: or fields: runs with "
                         "scheme.type: explicit (in one process, or over several ranks on the cpu "
                         "backend) or crank_nicolson (formulation adi, in one process), one with "
                         "anisotropy: with explicit"});
}

}  // namespace

std::vector<Refusal> refusals(const Key& k) {
  std::vector<Refusal> out;
  // Scheme x dimension x backend: the loader refuses these in every mode.
  if (k.scheme == Scheme::adaptive_explicit && k.dimension != Dimension::cable)
    out.push_back({"scheme.type",
                   "adaptive_explicit works on cables only (domain.length with one entry); on a "
                   "sheet or a box use explicit"});
  if (k.scheme == Scheme::crank_nicolson && k.dimension != Dimension::cable)
    out.push_back({"scheme.crank_nicolson.formulation",
                   "newton (the coupled system of a step) is for cables; on a sheet or a box use "
                   "adi (the default there)"});
  if (k.scheme == Scheme::adaptive_explicit && k.backend == Backend::cuda)
    out.push_back({"scheme.backend", "the adaptive_explicit scheme runs on the cpu backend only"});
  if (k.mode == Mode::members && k.dimension == Dimension::box)
    out.push_back({"domain.length", "the base config is a box (domain.length: [Lx, Ly, Lz]); " +
                                        kSweepsRun});
  // The medium before the mode: a medium the scheme does not read is refused by name, whatever
  // the mode can run.
  refuse_medium(k, out);
  if (k.mode == Mode::slabs && !runs_on_slabs(k))
    out.push_back({"scheme.type",
                   scheme_kind(k.scheme) + " on a " + dimension_name(k.dimension) + " with the " +
                       backend_name(k.backend) +
                       " backend does not run on several ranks yet (explicit and crank_nicolson "
                       "with formulation: adi on a sheet or a box, crank_nicolson with "
                       "formulation: newton on a cable do); run it as one process, without "
                       "mpirun"});
  if (k.mode == Mode::members && k.scheme == Scheme::adaptive_explicit)
    out.push_back({"scheme.type",
                   "adaptive_explicit moves each member's grid on its own, which lockstep "
                   "members cannot share; sweep with explicit or crank_nicolson"});
  return out;
}

void require(const Key& key) {
  const std::vector<Refusal> refused = refusals(key);
  if (refused.empty()) return;
  const Refusal& first = refused.front();
  if (first.key.empty()) throw ConfigError(first.message);
  throw ConfigError(first.key, first.message);
}

std::string markdown() {
  const Scheme schemes[] = {Scheme::explicit_euler, Scheme::adaptive_explicit,
                            Scheme::crank_nicolson, Scheme::adi};
  const char* scheme_labels[] = {"`explicit`", "`adaptive_explicit`",
                                 "`crank_nicolson`, `newton`", "`crank_nicolson`, `adi`"};
  const Dimension dimensions[] = {Dimension::cable, Dimension::sheet, Dimension::box};
  const Mode modes[] = {Mode::one_process, Mode::slabs, Mode::members};
  const char* mode_labels[] = {"one process", "ranks", "sweep"};
  const Backend backends[] = {Backend::cpu, Backend::cuda};
  // The parts of a medium, each asked on its own.
  Medium mask, per_node, tensor;
  mask.mask = per_node.per_node = tensor.tensor = true;
  const std::pair<const char*, Medium> media[] = {
      {"tissue:", mask}, {"fields:", per_node}, {"anisotropy:", tensor}};

  std::vector<std::string> notes;  // the refusals, numbered in order of first appearance
  std::string table = "| scheme | domain |";
  std::string rule = "|---|---|";
  for (const char* mode : mode_labels)
    for (const Backend backend : backends) {
      table += " " + std::string(mode) + ", " + backend_name(backend) + " |";
      rule += "---|";
    }
  table += "\n" + rule + "\n";
  for (int s = 0; s < 4; ++s)
    for (const Dimension dimension : dimensions) {
      table += std::string("| ") + scheme_labels[s] + " | " + dimension_name(dimension) + " |";
      for (const Mode mode : modes)
        for (const Backend backend : backends) {
          Key key{schemes[s], dimension, {}, mode, backend};
          const std::vector<Refusal> refused = refusals(key);
          std::string cell;
          if (refused.empty()) {
            cell = "yes";
            std::string read;
            for (const auto& [name, medium] : media) {
              key.medium = medium;
              if (refusals(key).empty()) read += (read.empty() ? "" : ", ") + std::string(name);
            }
            if (!read.empty()) cell += "; " + read;
          } else {
            const std::string note = "`" + refused.front().key + "`: " + refused.front().message;
            auto at = std::find(notes.begin(), notes.end(), note);
            if (at == notes.end()) at = notes.insert(at, note);
            cell = "no (" + std::to_string(at - notes.begin() + 1) + ")";
          }
          table += " " + cell + " |";
        }
      table += "\n";
    }
  table += "\n";
  for (std::size_t i = 0; i < notes.size(); ++i)
    table += std::to_string(i + 1) + ". " + notes[i] + "\n";
  return table;
}

}  // namespace fhn::capability

namespace fhn {

capability::Medium config_medium(const Config& c) {
  capability::Medium medium;
  medium.mask = !c.tissue.empty();
  medium.per_node = !c.fields.empty();
  medium.tensor = c.anisotropy.enabled;
  return medium;
}

capability::Key capability_key(const SchemeSpec& scheme, int dims, capability::Mode mode,
                               const capability::Medium& medium) {
  capability::Key key;
  switch (scheme.type) {
    case SchemeType::explicit_euler:
      key.scheme = capability::Scheme::explicit_euler;
      break;
    case SchemeType::adaptive_explicit:
      key.scheme = capability::Scheme::adaptive_explicit;
      break;
    case SchemeType::crank_nicolson:
      key.scheme = scheme.crank_nicolson.formulation == Formulation::adi
                       ? capability::Scheme::adi
                       : capability::Scheme::crank_nicolson;
      break;
  }
  key.dimension = dims == 1   ? capability::Dimension::cable
                  : dims == 2 ? capability::Dimension::sheet
                              : capability::Dimension::box;
  key.medium = medium;
  key.mode = mode;
  key.backend = scheme.backend == Backend::cuda ? capability::Backend::cuda
                                                : capability::Backend::cpu;
  return key;
}

capability::Key capability_key(const Config& c, capability::Mode mode,
                               const capability::Medium& medium) {
  return capability_key(c.scheme, c.domain.dims, mode, medium);
}

}  // namespace fhn
