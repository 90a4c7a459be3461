#pragma once
// Filaments of scroll waves in a box, from its frames: filaments.csv and the "filaments" entry of
// summary.json.
//
// A filament is a curve where the iso-surfaces v = v_iso and w = w_iso meet: the 3-D tip line of
// a scroll wave (Fenton and Karma 1998, Chaos 8, 20-47: the filament as the intersection of two
// iso-surfaces). Every face of every grid cube is searched with the bilinear interpolants of v
// and w, exactly as spiral_tips.hpp searches a sheet's cells (iso_crossings.hpp). A filament
// enters a cube through one face and leaves through another, so the crossings on each cube's
// faces are joined in pairs, and the segments that share a crossing (a face is shared by two
// cubes) are chained into polylines: open ones end on the box's faces, closed ones are rings.
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "grid/iso_cells.hpp"
#include "grid/polyline.hpp"
#include "io/frame_sink.hpp"
#include "io/vtk_writers.hpp"

namespace fhn {

class JsonObject;

// A filament: a polyline in order along it, closed for a ring (whose radius() is the mean
// distance of its points from their centroid).
using Filament = Polyline;

// The filaments of a box (v, w in node order i + N_x (j + N_y k)). A cube whose faces hold four
// crossings (two filaments through it) joins them in the pairing of least total length; an odd
// count (a crossing exactly on an edge or a corner, found once per face and merged) drops the
// crossing farthest from the others. Work is O(faces) with a four-corner sign test.
// It is join_filaments of the box's straddling faces (grid/iso_cells.hpp's straddling_cells).
std::vector<Filament> find_filaments(const Domain& domain, const real* v, const real* w,
                                     real v_iso, real w_iso);
// The filaments through `faces`, the cube faces of the box `domain` where both v - v_iso and
// w - w_iso change sign, in straddling_cells' order (whose order decides the filaments'): from a
// frame, or found by a scheme on its device (Scheme::iso_cells).
std::vector<Filament> join_filaments(const Domain& domain, const std::vector<IsoCell>& faces,
                                     real v_iso, real w_iso);

// The rate of a scroll ring's R^2 (negative: it shrinks; Keener's law R^2 = R0^2 - 2 b2 t under
// filament tension b2) from its frames (t_k, R_k^2), t increasing. The start settles first (the
// ring moves along its axis and R^2 falls slowly while the laid-out spiral becomes the medium's
// own), so the rate is fitted over the settled ring: the frames with t >= t_0 + settle, `settle`
// (output.filaments.settle) by default a third of the span t_last - t_0. Least squares
// (study/line_fit.hpp); its uncertainty is the larger of the slope's standard error and half the
// difference between the slopes of the window's two halves (the radius wobbles with the
// rotation, so the residuals are not independent, and a rate that still changes shows in the
// halves).
struct RingRate {
  real rate = 0.0;        // d(R^2)/dt over the window
  real error = 0.0;       // its uncertainty (above)
  real from = 0.0, to = 0.0;  // the window
  index_t frames = 0;     // frames in it
  real whole_rate = 0.0;  // over every frame, settling included
};
// nullopt with fewer than 6 frames in the window (3 per half).
std::optional<RingRate> ring_rate(const std::vector<real>& t, const std::vector<real>& r2,
                                  real settle = -1.0);

// Writes filaments.csv (header t,filament,closed,points,length,radius; one row per filament and
// frame, flushed per frame; radius empty for an open filament) and keeps what summary.json says:
// the filaments in the last frame and, while the box holds exactly one ring, its radius squared
// against time, whose rate over the settled ring is ring_rate's.
class FilamentTracker final : public FrameSink {
 public:
  // `append`: continue an existing filaments.csv (a restarted run; the caller first removes the
  // rows at or after the restart time, which this sink writes again). `frames`, when given, gets
  // every frame's filaments (the .vtp series beside the volume frames).
  // `settle`: ring_rate's (< 0: its default).
  FilamentTracker(const std::filesystem::path& file, real v_iso, real w_iso, real settle = -1.0,
                  bool append = false, std::unique_ptr<CurveSeries> frames = nullptr);
  // A frame's filaments: write_sample of the faces straddling_cells finds in it.
  void write(const FrameView& frame) override;
  // The sample number `index` (its .vtp's), at time t, from `faces` (join_filaments'): fhn run's
  // filaments at their own cadence (output.filaments.every) take the faces the scheme finds. A
  // sample at or before the previous one's t (a restart repeats its checkpoint's sample) writes
  // its rows but leaves the ring's series alone.
  void write_sample(index_t index, real t, const Domain& domain, const std::vector<IsoCell>& faces);
  // Arrays "filaments.state" (frames seen, last t, filaments in the last frame), "filaments.t"
  // and "filaments.r2" (the ring's series).
  void save(SchemeState& state) override;
  std::string restore(const SchemeState& state) override;
  // Adds "filaments": {count_at_end, ring_frames, ring_radius2_rate, ring_radius2_rate_error,
  // ring_fit_from, ring_fit_to, ring_fit_frames, ring_radius2_rate_whole (ring_rate; null
  // without enough frames), v_iso, w_iso}.
  void add_summary(JsonObject& summary) const;

 private:
  std::filesystem::path path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
  std::unique_ptr<CurveSeries> frames_out_;
  real v_iso_, w_iso_, settle_;
  index_t frames_ = 0;
  real last_t_ = 0.0;
  index_t count_at_end_ = 0;
  std::vector<real> ring_t_, ring_r2_;  // frames with exactly one filament, a ring
};

}  // namespace fhn
