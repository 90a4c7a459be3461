#pragma once
// The resolved configuration: every key of the YAML schema with its default filled in.
// configs/README.md documents each field (type, default, range, meaning, unit).
// Only src/config/*.cpp knows about YAML; everything else sees these plain structs.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "grid/adaptive_spec.hpp"
#include "grid/domain.hpp"
#include "grid/sides.hpp"
#include "grid/time_grid.hpp"
#include "kinetics/kinetics.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn {

// v_t = D lap(v) + f(v, w) + I_stim,   w_t = g(v, w), with f and g those of model.form
struct ModelParams {
  Kinetics kinetics;     // model.form and its parameters (src/kinetics/)
  real diffusion = 1.0;  // D

  // The parameters of form K (the run's form must be K).
  template <class K>
  K& form() { return std::get<K>(kinetics); }
  template <class K>
  const K& form() const { return std::get<K>(kinetics); }
};

struct BoundarySide {
  BoundaryType type = BoundaryType::no_flux;
  real value = 0.0;  // v held at this value when type == dirichlet
};

// left/right: the ends x = 0 and x = L_x; bottom/top (sheets and boxes): the sides y = 0 and
// y = L_y; front/back (boxes only): the faces z = 0 and z = L_z. Where a Dirichlet side meets
// another side, the first Dirichlet side of left, right, bottom, top, front, back holds the
// corner node.
struct BoundarySpec {
  BoundarySide left;
  BoundarySide right;
  BoundarySide bottom;
  BoundarySide top;
  BoundarySide front;
  BoundarySide back;
  int no_flux_order = 2;  // 2: mirror ghost node; 1: v_0 = v_1 (the reference blog; cables only)

  // The side at the low (hi = false) or high end of `axis`.
  const BoundarySide& side(int axis, bool hi) const {
    if (axis == 0) return hi ? right : left;
    if (axis == 1) return hi ? top : bottom;
    return hi ? back : front;
  }
};

// rest: the resting state of the run's kinetics form (its v or w), computed from the form.
enum class ProfileType { gaussian, constant, step, tanh_front, rectangle, rest, spiral, scroll_ring };

// The starts laid out from the form's excursion, on v and w together.
inline bool excursion_start(ProfileType t) {
  return t == ProfileType::spiral || t == ProfileType::scroll_ring;
}

// An initial profile, with s = the coordinate along `axis` (x, y or z) and r the position.
// Which fields are meaningful depends on the type:
//   gaussian:   background + amplitude * exp(-|r - center|^2 / width2)
//   constant:   value
//   step:       left for s < position, right for s >= position
//   tanh_front: left + (right - left) * (1 + tanh((s - position) / width)) / 2
//   rectangle:  value inside [x_min, x_max] (x [y_min, y_max] on a sheet, x [z_min, z_max] on a
//               box), background outside
//   spiral:     the form's excursion laid out as an Archimedean spiral about center
//   scroll_ring: the spiral laid out in every half-plane through the axis x = center_x,
//               y = center_y (a box), about the point at distance radius from the axis
struct Profile {
  ProfileType type = ProfileType::constant;
  real value = 0.0;
  Point center{0.0, 0.0, 0.0};
  int axis = 0;  // step, tanh_front: 0 = x, 1 = y, 2 = z
  real width2 = 1.0;
  real amplitude = 1.0;
  real background = 0.0;
  real position = 0.0;
  real width = 1.0;
  real left = 0.0;
  real right = 0.0;
  real x_min = 0.0, x_max = 0.0, y_min = 0.0, y_max = 0.0;  // rectangle
  real z_min = 0.0, z_max = 0.0;                             // rectangle on a box
  real wavelength = 0.0;  // spiral, scroll_ring (with center): the distance between successive arms
  real radius = 0.0;      // scroll_ring: the radius of the ring (its filament at the start)
};

struct InitialSpec {
  Profile v;
  Profile w;
};

// How a stimulus region is laid onto the grid's nodes (stimulus[i].coverage; model/stimulus.hpp):
//   overlap: each node takes the amplitude times the fraction of its cell inside the region, so
//            the current a region injects, and a dx study with it, converge with dx;
//   nodes:   each node inside the region (one on its edge included) takes the whole amplitude
//            (the rule before issue 47: which nodes a region takes changes with dx).
enum class Coverage { overlap, nodes };

// A current injected into the v equation: amplitude on [x_min, x_max] (x [y_min, y_max] on a
// sheet, x [z_min, z_max] on a box) during [start + k period, start + k period + duration) for
// k = 0..count-1.
struct Stimulus {
  real x_min = 0.0;
  real x_max = 0.0;
  real start = 0.0;
  real duration = 1.0;
  real amplitude = 1.0;
  real period = 0.0;  // 0: a single pulse
  index_t count = 1;
  real y_min = 0.0;  // sheets and boxes; default: the whole height [0, L_y]
  real y_max = 0.0;
  real z_min = 0.0;  // boxes only; default: the whole depth [0, L_z]
  real z_max = 0.0;
  Coverage coverage = Coverage::overlap;
};

struct TimeSpec {
  real end = 300.0;
  real dt = 0.1;
  index_t steps = 3000;  // derived: end / dt

  TimeGrid grid() const { return {dt, steps}; }
};

enum class SchemeType { explicit_euler, adaptive_explicit, crank_nicolson };
enum class Backend { cpu, cuda };

// How w^{n+1} is obtained in the Crank-Nicolson scheme.
//   trapezoidal: w+ = w + (k eps / 2) [(v - gamma w) + (v+ - gamma w+)], solved for w+ (second
//                order, A-stable); couples w+ to v+ linearly inside Newton.
//   leapfrog:    w+ = w- + 2 k eps (v - gamma w) (the reference blog; first step trapezoidal).
enum class WUpdate { trapezoidal, leapfrog };

struct NewtonSpec {
  real tolerance = 1e-10;  // stop when ||du||_inf < tolerance
  index_t max_iterations = 20;
};

// How the Crank-Nicolson step is solved.
//   newton: Newton on the coupled system of the step, a tridiagonal solve per iteration (cables).
//   adi:    Strang splitting: reaction half-steps around a diffusion step by Crank-Nicolson
//           (cable) or Peaceman-Rachford ADI (sheet), constant matrices factored once.
enum class Formulation { newton, adi };

struct CrankNicolsonSpec {
  Formulation formulation = Formulation::newton;  // default: newton on cables, adi on sheets
  WUpdate w_update = WUpdate::trapezoidal;
  // Default: thomas on the cpu backend, partitioned on cuda.
  solvers::TridiagonalBackend tridiagonal = solvers::TridiagonalBackend::thomas;
  NewtonSpec newton;
};

// What the config check holds an explicit scheme's time.dt to (model/stability.hpp).
//   reaction:  the limit of diffusion and the reaction's slope together: the odd-even mode cannot
//              grow anywhere v stays in the model's range.
//   diffusion: the limit of diffusion alone, dx^2 / (2 d D); the odd-even mode may grow where v
//              is near 1 (the reference blog's Fig. 7 shows that oscillation on purpose).
enum class ExplicitLimitCheck { reaction, diffusion };

struct SchemeSpec {
  SchemeType type = SchemeType::explicit_euler;
  Backend backend = Backend::cpu;
  ExplicitLimitCheck explicit_limit = ExplicitLimitCheck::reaction;
  CrankNicolsonSpec crank_nicolson;
  AdaptiveSpec adaptive;
};

enum class Precision { float32, float64 };

// activation.vti (sheets): per node the time v first (and last) crossed `threshold` upwards.
// The loader's defaults for the levels are the form's levels() (kinetics/); these are the cubic
// form's.
struct ActivationSpec {
  bool enabled = true;
  real threshold = 0.5;
  bool last = false;  // also the last crossing
};

// tips.csv (sheets): spiral tips, the crossings of the iso-lines v = v_iso and w = w_iso; and the
// thresholds of the tip path's classification (study/tip_path.hpp).
struct TipSpec {
  bool enabled = true;
  real v_iso = 0.5;
  real w_iso = 0.1;
  index_t breakup = 4;  // more tips than this in the last frame: breakup
  real drift = 0.1;     // drift per turn over the path's radius above this: drift
  real meander = 0.05;  // the meander's amplitude over the rotation's above this: meander
  real every = 1.0;      // the tips' cadence in time units (a multiple of dt); the loader's
                         // default is output.every
  index_t every_steps = 10;  // derived: every / dt
};

// filaments.csv (boxes): scroll-wave filaments, where the iso-surfaces v = v_iso and w = w_iso
// meet (study/filaments.hpp).
struct FilamentSpec {
  bool enabled = false;
  real v_iso = 0.5;
  real w_iso = 0.1;
  real settle = -1.0;  // time the ring's rate leaves out after its first frame; < 0: a third
  real every = 1.0;    // the filaments' cadence in time units (a multiple of dt); the loader's
                       // default is output.every
  index_t every_steps = 10;  // derived: every / dt
};

// ecg.csv: the pseudo-ECG, the unipolar extracellular potential at electrode points
// (study/pseudo_ecg.hpp), sampled every `every` time units. A cable's electrode is [x, y] (y its
// distance from the cable), a sheet's [x, y, z] (z its height above the sheet), a box's
// [x, y, z] (inside the box or outside it); none may sit on a node.
struct EcgSpec {
  std::vector<Point> electrodes;  // empty: no ECG
  real every = 0.0;               // sampling cadence in time units (default: output.every)
  index_t every_steps = 0;        // derived: every / dt
  bool enabled() const { return !electrodes.empty(); }
  // Coordinates an electrode takes on a domain of `dims` axes: one more than the axes on a
  // cable and a sheet (the distance off the tissue), three in a box.
  static int coordinates(int dims) { return dims == 3 ? 3 : dims + 1; }
};

// restitution.csv and cv.csv (wherever there are probes): per probe and beat, from the probes'
// samples, the activation (v crossing output.activation.threshold upwards), the repolarisation (v
// crossing v_peak - level (v_peak - v_rest) downwards: level 0.9 gives APD90), APD and DI; per
// pair of consecutive probes the conduction velocity of each beat (study/restitution.hpp).
struct RestitutionSpec {
  bool enabled = true;
  real level = 0.9;
};

struct OutputSpec {
  real every = 1.0;             // frame cadence in time units (a multiple of dt)
  index_t every_steps = 10;     // derived: every / dt
  Precision precision = Precision::float64;
  std::vector<Point> probes;    // default: both ends and the middle (sheet, box: centre, corners)
  real probes_every = 1.0;      // probes.csv's cadence in time units (a multiple of dt); the
                                // loader's default is `every`
  index_t probes_every_steps = 10;  // derived: probes_every / dt
  RestitutionSpec restitution;  // wherever there are probes
  index_t stride = 1;           // frames keep every stride-th node along each axis
  bool vtk = true;              // .pvd + frames/*.vtu (cable) or frames/*.vti (sheet, box)
  bool spacetime = true;        // spacetime.vti kymograph (cables)
  ActivationSpec activation;    // sheets
  TipSpec tips;                 // sheets
  FilamentSpec filaments;       // boxes
  EcgSpec ecg;                  // ecg.csv (off unless electrodes are given)
  bool phase = false;           // frames carry the point array "phase" (sheets, boxes)
  bool newton_log = false;      // newton.csv (Crank-Nicolson): every Newton iteration
  real checkpoint_every = 0.0;  // simulated time between checkpoints; 0: none
  index_t checkpoint_every_steps = 0;  // derived

  // Frames fall on steps 0, every, 2 every, ... and on the last step. Those before `step`:
  // ceil(step / every); those of a run of `steps` steps: ceil(steps / every) + 1.
  index_t frames_before(index_t step) const { return (step + every_steps - 1) / every_steps; }
  index_t frames_in(index_t steps) const { return frames_before(steps) + 1; }
};

// tissue: one region of where the medium is on a sheet. The regions apply in order, each adding
// its nodes to the tissue or removing them; the tissue before the first is the whole sheet when
// the first removes, none when it adds (model/tissue.hpp).
// A picture (an image region's, a fields: entry's): width x height samples, row 0 the top of the
// picture (largest y). From a PNG (model/png_image.hpp) the samples are grey levels in [0, 1], one
// per pixel, a pixel a cell of the picture; from a VTK image (.vti, model/vti_image.hpp) they are
// the values of one scalar array, at the image's points (point data: a point stands for the
// nodes nearest it) or in its cells (cell data), NaN where the file has no number.
struct Picture {
  index_t width = 0, height = 0;
  std::vector<real> values;
  bool at_points = false;  // samples at points (nearest point) rather than in cells
  // A .vti's own place: the x of its first and last point column, the y of its bottom and top
  // point row (origin + (n - 1) spacing); unset for a PNG, which has no coordinates.
  std::optional<std::array<real, 4>> own_bounds;
  real at(index_t column, index_t row) const {
    return values[static_cast<std::size_t>(column + width * row)];
  }
};

// image: a picture stretched over the rectangle x_min .. y_max (a PNG: the whole sheet by default;
// a .vti: where its origin and spacing put it); a point is in the region when the sample it takes
// is at least `threshold` (`above`), or below it.
enum class TissueShape { disc, rectangle, polygon, image };
struct TissueRegion {
  TissueShape shape = TissueShape::disc;
  bool add = false;                          // op: add (true) or remove (false)
  Point center{0.0, 0.0, 0.0};               // disc
  real radius = 0.0;                         // disc
  real x_min = 0.0, x_max = 0.0, y_min = 0.0, y_max = 0.0;  // rectangle
  real z_min = 0.0, z_max = 0.0;                             // rectangle on a box
  std::vector<Point> points;                 // polygon: its corners in order (at least 3)
  std::string file;                          // image: the PNG or .vti file (absolute)
  std::string array;                         // image: a .vti's scalar array (empty: its default)
  real threshold = 0.5;                      // image: the level between in and out
  bool above = true;                         // image: in where the pixel >= threshold
  std::shared_ptr<const Picture> image;      // image: the picture, read when the config loads
};

// fields: where a parameter takes other values than its uniform one (model:'s scalar, or the
// fibre angle of anisotropy:). The entries apply in order, each over what the ones before it left,
// starting from the uniform value at every node (model/field_values.hpp).
//   region:   `value` inside the region's shape, blended linearly into what lies outside over a
//             band of width `edge` centred on the shape's boundary (edge 0: a sharp boundary,
//             points on it inside);
//   gradient: linear along `axis` from `from` at position `start` to `to` at `end`, constant
//             beyond them (every node takes it);
//   image:    from + (to - from) p, p in [0, 1] the pixel of a picture (`region`, shape image:
//             its file and the rectangle it covers) the node falls in; nodes off the picture keep
//             what they had.
enum class FieldType { region, gradient, image };
struct FieldSpec {
  std::string parameter;        // "diffusion", a parameter key of model.form, or "fibre_angle"
  FieldType type = FieldType::region;
  TissueRegion region;          // region, image: the shape and its keys (`add` is not used)
  real value = 0.0;             // region: the value inside
  real edge = 0.0;              // region: the width of the blend across the boundary (0: sharp)
  int axis = 0;                 // gradient: 0 = x, 1 = y
  real start = 0.0, end = 0.0;  // gradient: where along the axis it begins and ends (start < end)
  real from = 0.0, to = 0.0;    // gradient: the values at start and at end; image: at 0 and 1
};

// anisotropy: fibres in the sheet, along f = (cos theta, sin theta), with the diffusion tensor
//   D = D_t I + (D_l - D_t) f f^T
// in place of model.diffusion (sheets, explicit scheme). theta may vary in space (a `fields:`
// entry for fibre_angle).
struct AnisotropySpec {
  bool enabled = false;
  real longitudinal = 1.0;  // D_l, along the fibres (> 0)
  real transverse = 1.0;    // D_t, across them (> 0)
  real angle = 0.0;         // theta in degrees, from +x towards +y
};

struct Config {
  std::string name = "fhn";
  std::string source;           // file the config was read from (for messages and run.log)
  std::vector<std::string> notes;  // what --set replaced in the file (exclusive keys), for run.log
  // What the checks accept but the user should hear of, located ("file:line:column: ..."): fhn
  // validate prints them, fhn run writes them to stderr and run.log.
  std::vector<std::string> warnings;
  std::map<std::string, std::string> locations;  // key path -> "file:line:column" or "--set ..."
  // Where `key` was given ("file:line:column" or "--set key=value"), or the file when it was
  // not (a default): for the checks made after loading (e.g. what several ranks can run).
  std::string where(const std::string& key) const {
    const auto it = locations.find(key);
    return it == locations.end() ? source : it->second;
  }
  ModelParams model;
  Domain domain;
  BoundarySpec boundary;
  InitialSpec initial;
  std::vector<Stimulus> stimulus;
  std::vector<TissueRegion> tissue;  // empty: the whole domain is tissue
  std::vector<FieldSpec> fields;     // empty: every parameter uniform
  AnisotropySpec anisotropy;         // disabled: isotropic, model.diffusion
  TimeSpec time;
  SchemeSpec scheme;
  OutputSpec output;
};

}  // namespace fhn
