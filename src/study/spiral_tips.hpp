#pragma once
// Spiral tips on a sheet, from its frames: tips.csv and the "tips" entry of summary.json.
//
// A tip is a point where the iso-lines v = v_iso and w = w_iso cross: the end of a wave, where
// the excited front (v rising through v_iso) meets the recovering back (w through w_iso). Each
// grid cell is searched with the bilinear interpolants of v and w, so a tip is located inside its
// cell, not only to the nearest node (find_tips below gives the formulas).
//
// The tip nearest to the previous frame's principal tip is the principal tip; its path over the
// consecutive frames that have tips gives the rotation period (measure_rotation below).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "grid/iso_cells.hpp"
#include "io/frame_sink.hpp"
#include "model/parameter_fields.hpp"
#include "study/tip_path.hpp"

namespace fhn {

class JsonObject;

struct TipPoint {
  real x = 0.0;
  real y = 0.0;
};

// The crossings of v = v_iso and w = w_iso on a sheet (v, w in node order i + N_x j), in the
// order of the cells they lie in (j, then i). A tip on an edge or a corner shared by several
// cells is reported once. A cell where the two iso-lines coincide has no isolated crossing and
// gives no tip. Work is O(cells) with a four-corner sign test; only cells where both v - v_iso
// and w - w_iso change sign solve for the crossing. `outside`: the tissue mask (non-zero where
// there is no tissue; nullptr: all tissue); a cell with a corner outside gives no tip.
std::vector<TipPoint> find_tips(const Domain& domain, const real* v, const real* w,
                                const std::uint8_t* outside, real v_iso, real w_iso);

// Phase singularities, a second tip detector (Gray, Pertsov and Jalife, Nature 392, 75-78
// (1998)): the phase of a node about the point (v_iso, w_iso) of the (v, w) plane,
//   theta = atan2(w - w_iso, v - v_iso)   (grid/phase.hpp, phase_angle),
// winds by 2 pi q around a cell, q its charge: the sum of the wrapped phase differences
// (remainder(theta_b - theta_a, 2 pi)) along its edges counter-clockwise, (i, j) -> (i + 1, j)
// -> (i + 1, j + 1) -> (i, j + 1) -> (i, j), over 2 pi. A cell with q != 0 has both v - v_iso
// and w - w_iso change sign over its corners, so only the cells straddling both levels (the
// tips' cells, grid/iso_cells.hpp) are looked at; by the degree of the bilinear map
// (v - v_iso, w - w_iso) over the cell, q is the signed count of its iso-line tips (one tip:
// q = +-1; the sign gives the spiral's sense of rotation, with the sense in which the
// excursion circles (v_iso, w_iso)).
struct PhaseSingularity {
  index_t i = 0, j = 0;  // the cell
  int charge = 0;        // +-1 (or +-2, two tips of one sense in a cell)
};
std::vector<PhaseSingularity> phase_singularities(const std::vector<IsoCell>& cells, real v_iso,
                                                 real w_iso);

// The tips of find_tips from the cells straddling both levels (grid/iso_cells.hpp: what
// find_tips scans for, in its order), as find_tips gives them: find_tips is straddling_cells
// and this.
std::vector<TipPoint> tips_in_cells(const Domain& domain, const std::vector<IsoCell>& cells,
                                    real v_iso, real w_iso);

// The rotation of a path (t_k, x_k, y_k), t increasing, about the centre its tip circles, over
// its second half.
//
// Window: the samples with t_k >= (t_0 + t_last) / 2 (the first half is the spiral's formation),
// k = k0..last. About a centre c_k the angle
//   theta_k = atan2(y_k - c_y,k, x_k - c_x,k)
// is unwrapped sample to sample, u_k = u_{k-1} + remainder(theta_k - theta_{k-1}, 2 pi), which
// assumes fewer than half a turn between frames. With sigma = sign(u_last - u_k0) and
//   M = floor(|u_last - u_k0| / (2 pi))   full turns in the window,
// tau is the first time u reaches u_k0 + sigma 2 pi M (linear interpolation between samples),
// and the period is T = (tau - t_k0) / M. Only full turns enter, so a path that repeats with
// period T gives T whatever the position of the centre inside it (the error is that of the
// linear interpolation of u between two frames).
// The centre, in two steps (a fixed point would not do: a drifting spiral's tip circles a centre
// that moves, and about a fixed point it turns once per pass, not once per rotation):
// 1. the Hann-weighted least-squares line through the window's positions (study/line_fit.hpp),
//    which gives M and a first period T1;
// 2. the mean of the path over one period T1 around each sample (spiral_tips.cpp), carried at
//    the drift velocity where the period would leave the window: the turns and T again.
// There is no period when the window holds fewer than 2 full turns (a short path, no path, a
// tip that does not circle a point).
struct Rotation {
  index_t rotations = 0;       // M
  std::optional<real> period;  // T, when M >= 2
  real t_from = 0.0;           // the window
  real t_to = 0.0;
};
Rotation measure_rotation(const std::vector<real>& t, const std::vector<real>& x,
                          const std::vector<real>& y);

// Writes tips.csv (header t,tip,x,y; one row per tip and frame, flushed per frame; a frame
// without tips writes no row) and follows the principal tip. Within a frame, tip 0 is the tip
// nearest to the previous principal tip (the first found when there is none) and the others
// follow by their distance to tip 0. A frame without tips ends the principal tip's path; the
// next frame with tips starts a new one, and the rotation is that of the latest path.
// Sheets only. Only the path is kept, never a frame.
// The nodes no current reaches besides those outside the tissue: where a D field is 0 (a scar,
// fields:), and the mask's outside nodes; one byte per node (1: cut off), empty when there are
// none of the former.
std::vector<std::uint8_t> cut_off_nodes(const ParameterFields& fields);

class TipTracker final : public FrameSink {
 public:
  // `append`: continue an existing tips.csv (a restarted run; the caller first removes the
  // rows at or after the restart time, which this sink writes again). `cut_off`: one byte per
  // node, non-zero where no current flows (cut_off_nodes), whose cells have no tip, as cells with
  // a corner outside the tissue have none; empty: the frames' mask alone.
  // `limits`: the thresholds of the path's classification in summary.json. An empty `file`
  // writes no tips.csv: the tracker follows the path alone (a sweep's members). `watch`: points
  // (the run's probes) whose upward crossings of v_iso tell a wave circling an obstacle
  // (tip_path.hpp's anchored class; read in write()'s frames, as the probes read v).
  TipTracker(const std::filesystem::path& file, real v_iso, real w_iso, bool append,
             std::vector<std::uint8_t> cut_off = {}, TipPathLimits limits = {},
             std::vector<Point> watch = {});

  // A frame at or before the previous frame's t (a restart repeats its checkpoint's frame)
  // writes its rows but leaves the path and the counts alone. It is write_sample of the frame's
  // cells (straddling_cells, skipping skip(frame.outside)), its tissue nodes at or above v_iso
  // and v at the watched points as the probes read it (FrameView::at).
  void write(const FrameView& frame) override;
  // One sample of tips at time t without a frame (fhn run's tips at their own cadence,
  // output.tips.every): the cells and the excited nodes the scheme found (Scheme::iso_cells, with
  // skip(outside)), v at each watched point (`watch_v`, watched() in order) and whether the medium
  // has a tissue mask.
  void write_sample(real t, const Domain& domain, const std::vector<IsoCell>& cells,
                    index_t excited, const std::vector<real>& watch_v, bool obstacles);
  // The mask whose cells hold no tip: the cut-off nodes where there are some, else `outside`.
  const std::uint8_t* skip(const std::uint8_t* outside) const {
    return cut_off_.empty() ? outside : cut_off_.data();
  }
  const std::vector<Point>& watched() const { return watch_; }
  // What write() does with the tips it finds in a frame at time t of the sheet `domain`
  // (`excited_nodes`: the frame's tissue nodes with v at or above v_iso): a sweep finds its
  // members' tips from the cells its batch returns (tips_in_cells) and hands them over here.
  void write_tips(real t, const Domain& domain, std::vector<TipPoint> tips, index_t excited_nodes);
  // Arrays "tips.state" (frames seen, last t, tips in the last frame, frames with tips, path
  // length), "tips.t", "tips.x", "tips.y" (the principal tip's path), "tips.spread" (the first
  // frame's excited nodes, whether a later frame had more) and, with watched points,
  // "tips.watch" (per point: v in the last frame, its crossings so far, and whether the medium
  // has an obstacle) and "tips.crossings" (every point's crossings in turn).
  void save(SchemeState& state) override;
  std::string restore(const SchemeState& state) override;

  // What restore() takes from a checkpoint, checked against what a run can hold (IoError
  // otherwise); nullopt when it holds no tip state. Touches nothing: a restart checks the
  // checkpoint with it before any file is opened.
  struct Saved {
    index_t frames = 0;
    real last_t = 0.0;
    index_t tips_at_end = 0;
    index_t frames_with_tips = 0;
    std::vector<real> t, x, y;
    index_t first_excited = 0;
    bool spread = false;
    std::vector<real> watch_v;                  // per watched point, empty: none saved
    std::vector<std::vector<real>> crossings;  // per watched point
    bool obstacles = false;
  };
  static std::optional<Saved> check_state(const SchemeState& state);

  Rotation rotation() const { return measure_rotation(path_t_, path_x_, path_y_); }
  std::optional<real> period() const { return rotation().period; }
  index_t tips_at_end() const { return tips_at_end_; }
  index_t frames_with_tips() const { return frames_with_tips_; }
  // The latest path's analysis (tip_path.hpp) in the run's context so far; computed once per
  // state (summary.json and run.log ask for the same).
  const TipPathAnalysis& path_analysis() const;
  // Adds "tips": {count_at_end, rotation_period (or null), rotations, frames_with_tips,
  // phase_singularities_at_end and phase_singularity_charge_at_end (the last frame's, from
  // write(); 0 for a tracker fed by write_tips), v_iso, w_iso, path: {class, turns, period, radius, drift_speed, meander_frequency, meander_ratio,
  // t_from, t_to} (null where not measured)}.
  void add_summary(JsonObject& summary) const;

 private:
  std::filesystem::path file_;
  real v_iso_;
  real w_iso_;
  std::vector<std::uint8_t> cut_off_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
  index_t frames_ = 0;
  real last_t_ = 0.0;
  index_t tips_at_end_ = 0;
  index_t frames_with_tips_ = 0;
  std::vector<real> path_t_, path_x_, path_y_;  // the principal tip, latest path
  TipPathLimits limits_;
  bool excited_ = false;            // the last frame: some v at or above v_iso
  index_t first_excited_ = 0;  // the first frame's nodes at or above v_iso
  bool spread_ = false;        // a later frame had more
  real x_max_ = 0.0, y_max_ = 0.0, dx_ = 0.0;  // the sheet, from the frames
  std::vector<Point> watch_;
  std::vector<real> watch_v_;                  // v at each watched point in the last frame
  std::vector<std::vector<real>> crossings_;  // each point's upward crossings of v_iso
  bool obstacles_ = false;                     // a frame had a mask, or cut_off_ a node
  index_t singularities_at_end_ = 0;  // the last frame's phase singularities (write() only)
  int charge_at_end_ = 0;             // and their summed charge
  mutable std::optional<TipPathAnalysis> analysis_;  // of the state above; reset by write, restore
};

}  // namespace fhn
