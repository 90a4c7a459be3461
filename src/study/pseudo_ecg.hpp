#pragma once
// The pseudo-ECG (output.ecg): the unipolar extracellular potential at electrode points, from
// the transmembrane v over the tissue (Plonsey and Barr, Bioelectricity: A Quantitative
// Approach, the volume-conductor integral; the form of Gima and Rudy, Circ Res 90, 889 (2002)):
//
//   phi_e(x_e, t) = K  integral over the tissue of  (-D grad v) . grad(1/r)  dV,
//   r = |x - x_e|,  grad taken at the source point x:  grad(1/r) = (x_e - x) / r^3,
//
// -D grad v the impressed current density (D carries the intracellular conductivity). K, which
// in the volume conductor is a^2 / (4 sigma_e) of the fibre radius a and the extracellular
// conductivity, is 1 here: phi is in the units of v times length^(d-2) (d the tissue's
// dimension), to be read for its shape and timing. Sign: a wavefront moving towards the
// electrode gives a positive deflection, one moving away a negative one (the clinical
// convention), so a pulse passing under an electrode draws + then - (biphasic).
//
// Where the tissue lies: a cable along the x axis (y = z = 0), a sheet in the plane z = 0, a
// box; an electrode is a point of space ([x, y] beside a cable, [x, y, z] over a sheet, in or
// around a box; config/config.hpp, EcgSpec), never on a node (the loader refuses r = 0).
//
// The quadrature, on the nodes of the uniform grid (docs/VERIFICATION.md, "The pseudo-ECG"):
//   grad v at a node: central differences (v_{i+1} - v_{i-1}) / (2 dx) along each axis, one-sided
//     (v_{i+1} - v_i) / dx or (v_i - v_{i-1}) / dx where a neighbour is beyond the grid or
//     outside the tissue, 0 where both are;
//   D grad v: the node's D (uniform or per node), or the sheet's tensor [[xx, xy], [xy, yy]]
//     (anisotropy:, uniform or per node) times grad v;
//   grad(1/r): exact, at the node;
//   the integral: the trapezoid rule, each tissue node weighted by the product over its axes of
//     dx (dx / 2 at the first and last node of an axis); nodes outside the tissue count 0.
// Second order in dx for smooth v (central differences and the trapezoid rule; the one-sided
// differences sit in the edge nodes' half weights). Host code, on a frame-like snapshot.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/frame_sink.hpp"
#include "model/problem.hpp"

namespace fhn {

class JsonObject;

// What grad v is weighed with at each node.
struct EcgMedium {
  real diffusion = 1.0;                      // D, where uniform
  const real* diffusion_values = nullptr;    // D per node (nullptr: uniform)
  const TensorField* tensor = nullptr;       // an anisotropic sheet's tensor (nullptr: isotropic)
  const std::uint8_t* outside = nullptr;     // the tissue mask (nullptr: all tissue)
};

// The medium of a run's Problem: D or its field, the tensor where anisotropy: gives one, the
// mask (pointers into `problem`, which must outlive the medium).
EcgMedium ecg_medium(const Problem& problem);

// phi_e at each electrode for v on the nodes of `domain` (node order), by the quadrature above.
std::vector<real> pseudo_ecg(const Domain& domain, const real* v, const EcgMedium& medium,
                             const std::vector<Point>& electrodes);

// ecg.csv, "t,phi@(x y),..." (an electrode's coordinates as given), a row per sample flushed as
// it is written; and each electrode's extremes (largest and smallest phi and when) for
// summary.json, kept in checkpoints ("ecg.extremes") so that a restarted run reports the whole
// run's. It is handed snapshots of the uniform grid (FrameView::nodes == nullptr) at the ECG's
// own cadence (run/run_loop.hpp), not frames.
class PseudoEcg final : public FrameSink {
 public:
  // `append`: continue an existing file (a restarted run, its rows from the restart on cut off).
  PseudoEcg(const std::filesystem::path& file, std::vector<Point> electrodes, EcgMedium medium,
            int dims, bool append);
  void write(const FrameView& sample) override;
  void save(SchemeState& state) override;
  std::string restore(const SchemeState& state) override;
  // "ecg": {"every": the cadence, "samples": rows written, "electrodes": [{"at": "(x y)",
  // "max", "t_max", "min", "t_min"}]} (nulls before any sample).
  void add_summary(JsonObject& summary, real every) const;

  // The header line (with its '\n') of the ecg.csv of these electrodes on a domain of `dims`.
  static std::string header(const std::vector<Point>& electrodes, int dims);

 private:
  struct Extremes {
    real max = 0.0, t_max = 0.0, min = 0.0, t_min = 0.0;
  };
  std::filesystem::path path_;
  std::vector<Point> electrodes_;
  EcgMedium medium_;
  int dims_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
  index_t samples_ = 0;     // rows written over the whole run (restored on a restart)
  index_t last_step_ = -1;  // the step of the last row
  std::vector<Extremes> extremes_;
};

}  // namespace fhn
