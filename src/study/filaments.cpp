#include "study/filaments.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv_resume.hpp"
#include "io/json.hpp"
#include "grid/snapshot.hpp"
#include "study/iso_crossings.hpp"
#include "study/line_fit.hpp"

namespace fhn {
namespace {

// Crossings closer than this (in cell widths, in every coordinate) are one: a crossing on an
// edge is found by each face that has the edge.
constexpr real kSameCrossing = 1e-6;

// The crossings (grid units, merged within kSameCrossing) and, per cube touched, the ones on its
// faces.
class Crossings {
 public:
  // The id of the crossing at g, a new one unless one lies within kSameCrossing.
  index_t add(const Point& g) {
    const auto key = [](real x) { return static_cast<long long>(std::llround(x / kSameCrossing)); };
    const long long kx = key(g[0]), ky = key(g[1]), kz = key(g[2]);
    // The key's neighbours too: two values within kSameCrossing may round to adjacent keys.
    for (long long dx = -1; dx <= 1; ++dx)
      for (long long dy = -1; dy <= 1; ++dy)
        for (long long dz = -1; dz <= 1; ++dz) {
          const auto found = ids_.find(hash(kx + dx, ky + dy, kz + dz));
          if (found == ids_.end()) continue;
          for (const index_t id : found->second) {
            const Point& p = points[static_cast<std::size_t>(id)];
            if (std::abs(p[0] - g[0]) <= kSameCrossing && std::abs(p[1] - g[1]) <= kSameCrossing &&
                std::abs(p[2] - g[2]) <= kSameCrossing)
              return id;
          }
        }
    points.push_back(g);
    const auto id = static_cast<index_t>(points.size() - 1);
    ids_[hash(kx, ky, kz)].push_back(id);
    return id;
  }

  std::vector<Point> points;

 private:
  static long long hash(long long x, long long y, long long z) {
    return (x * 73856093LL) ^ (y * 19349663LL) ^ (z * 83492791LL);
  }
  std::unordered_map<long long, std::vector<index_t>> ids_;
};

// The pairs of `ids` (a cube's crossings) joined by segments: one pair for two; for four the
// pairing of least total length; an odd count loses its last crossing first.
void pair_up(std::vector<index_t> ids, const std::vector<Point>& points,
             std::vector<std::pair<index_t, index_t>>& segments) {
  if (ids.size() % 2 == 1) ids.pop_back();
  auto at = [&](index_t id) { return points[static_cast<std::size_t>(id)]; };
  while (ids.size() >= 4) {
    // The pairing of the first four of least length: (01)(23), (02)(13) or (03)(12).
    const int pairings[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
    int best = 0;
    real shortest = 0.0;
    for (int p = 0; p < 3; ++p) {
      const int* q = pairings[p];
      const real length = distance(at(ids[q[0]]), at(ids[q[1]])) + distance(at(ids[q[2]]), at(ids[q[3]]));
      if (p == 0 || length < shortest) {
        shortest = length;
        best = p;
      }
    }
    const int* q = pairings[best];
    segments.emplace_back(ids[q[0]], ids[q[1]]);
    segments.emplace_back(ids[q[2]], ids[q[3]]);
    ids.erase(ids.begin(), ids.begin() + 4);
  }
  if (ids.size() == 2) segments.emplace_back(ids[0], ids[1]);
}

}  // namespace

std::vector<Filament> find_filaments(const Domain& domain, const real* v, const real* w,
                                     real v_iso, real w_iso) {
  FHN_VERIFY(domain.dims == 3, InternalError, "find_filaments: filaments are found in boxes only");
  std::vector<IsoCell> faces;
  straddling_cells(domain, v, w, nullptr, v_iso, w_iso, faces);
  return join_filaments(domain, faces, v_iso, w_iso);
}

std::vector<Filament> join_filaments(const Domain& domain, const std::vector<IsoCell>& faces,
                                     real v_iso, real w_iso) {
  const index_t n[3] = {domain.nodes[0], domain.nodes[1], domain.nodes[2]};
  const index_t stride[3] = {1, n[0], n[0] * n[1]};
  Crossings crossings;
  // The crossings on the faces of each cube touched, by cube id i + N_x (j + N_y k).
  std::unordered_map<index_t, std::vector<index_t>> cubes;
  auto in_cube = [&](index_t cube, index_t id) {
    std::vector<index_t>& ids = cubes[cube];
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  };
  // Face f at node `at`, spanned by axes a (s) and b (r), bounds the cubes at `at` and one below
  // along its normal.
  for (const IsoCell& f : faces) {
    const int normal = f.normal, a = span_a(normal), b = span_b(normal);
    const index_t at[3] = {f.i, f.j, f.k};
    const index_t c00 = at[0] + stride[1] * at[1] + stride[2] * at[2];
    cell_crossings(f.v[0] - v_iso, f.v[1] - v_iso, f.v[2] - v_iso, f.v[3] - v_iso,
                   f.w[0] - w_iso, f.w[1] - w_iso, f.w[2] - w_iso, f.w[3] - w_iso,
                   [&](real s, real r) {
                     Point g{static_cast<real>(at[0]), static_cast<real>(at[1]),
                             static_cast<real>(at[2])};
                     g[a] += s;
                     g[b] += r;
                     const index_t id = crossings.add(g);
                     // The cubes on either side of the face (those inside the box).
                     if (at[normal] + 1 < n[normal]) in_cube(c00, id);
                     if (at[normal] > 0) in_cube(c00 - stride[normal], id);
                   });
  }
  // Segments within the cubes, then the polylines through them.
  std::vector<std::pair<index_t, index_t>> segments;
  std::vector<index_t> cube_ids;
  for (const auto& entry : cubes) cube_ids.push_back(entry.first);
  std::sort(cube_ids.begin(), cube_ids.end());  // the same filaments whatever the map's order
  for (const index_t cube : cube_ids) pair_up(cubes[cube], crossings.points, segments);
  const std::size_t count = crossings.points.size();
  std::vector<std::vector<std::size_t>> edges_at(count);  // segment indices at each crossing
  for (std::size_t e = 0; e < segments.size(); ++e) {
    edges_at[static_cast<std::size_t>(segments[e].first)].push_back(e);
    edges_at[static_cast<std::size_t>(segments[e].second)].push_back(e);
  }
  std::vector<bool> used(segments.size(), false);
  const real h[3] = {domain.length[0] / static_cast<real>(n[0] - 1),
                     domain.length[1] / static_cast<real>(n[1] - 1),
                     domain.length[2] / static_cast<real>(n[2] - 1)};
  auto position = [&](std::size_t id) {
    const Point& g = crossings.points[id];
    return Point{g[0] * h[0], g[1] * h[1], g[2] * h[2]};
  };
  // Follows unused segments from crossing `start`, appending the crossings met.
  auto walk = [&](std::size_t start, Filament& f) {
    std::size_t here = start;
    f.points.push_back(position(here));
    for (;;) {
      std::size_t next_edge = segments.size();
      for (const std::size_t e : edges_at[here])
        if (!used[e]) {
          next_edge = e;
          break;
        }
      if (next_edge == segments.size()) return here;
      used[next_edge] = true;
      const auto [p, q] = segments[next_edge];
      here = static_cast<std::size_t>(static_cast<std::size_t>(p) == here ? q : p);
      if (here == start) return here;  // round a ring
      f.points.push_back(position(here));
    }
  };
  std::vector<Filament> filaments;
  // Open filaments first, from their ends (a crossing with one segment), then the rings.
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t id = 0; id < count; ++id) {
      const bool end = edges_at[id].size() == 1;
      const bool unused = std::any_of(edges_at[id].begin(), edges_at[id].end(),
                                      [&](std::size_t e) { return !used[e]; });
      if (!unused || (pass == 0 && !end)) continue;
      Filament f;
      f.closed = walk(id, f) == id && pass == 1;
      filaments.push_back(std::move(f));
    }
  return filaments;
}

std::optional<RingRate> ring_rate(const std::vector<real>& t, const std::vector<real>& r2,
                                  real settle) {
  if (t.size() < 6) return std::nullopt;
  if (settle < 0.0) settle = (t.back() - t.front()) / 3.0;
  const auto first = static_cast<std::size_t>(
      std::lower_bound(t.begin(), t.end(), t.front() + settle) - t.begin());
  const std::size_t m = t.size() - first;
  if (m < 6) return std::nullopt;
  // The line through frames [begin, begin + count).
  auto fit = [&](std::size_t begin, std::size_t count) {
    return fit_line(
        count, [&](std::size_t k) { return t[begin + k]; },
        [&](std::size_t k) { return r2[begin + k]; });
  };
  const LineFit window = fit(first, m);
  const real halves = std::abs(fit(first, m / 2).slope - fit(first + m / 2, m - m / 2).slope);
  RingRate out;
  out.rate = window.slope;
  out.error = std::max(window.slope_error, 0.5 * halves);
  out.from = t[first];
  out.to = t.back();
  out.frames = static_cast<index_t>(m);
  out.whole_rate = fit(0, t.size()).slope;
  return out;
}

FilamentTracker::FilamentTracker(const std::filesystem::path& file, real v_iso, real w_iso,
                                 real settle, bool append, std::unique_ptr<CurveSeries> frames)
    : path_(file),
      out_(open_csv(file, "t,filament,closed,points,length,radius\n", append)),
      frames_out_(std::move(frames)),
      v_iso_(v_iso),
      w_iso_(w_iso),
      settle_(settle) {}

void FilamentTracker::write(const FrameView& f) {
  FHN_VERIFY(f.domain->dims == 3, InternalError, "FilamentTracker: filaments are found in boxes only");
  std::vector<IsoCell> faces;
  straddling_cells(*f.domain, f.v, f.w, nullptr, v_iso_, w_iso_, faces);
  write_sample(f.index, f.t, *f.domain, faces);
}

void FilamentTracker::write_sample(index_t index, real t, const Domain& domain,
                                   const std::vector<IsoCell>& faces) {
  const std::vector<Filament> filaments = join_filaments(domain, faces, v_iso_, w_iso_);
  std::string rows;
  for (std::size_t k = 0; k < filaments.size(); ++k) {
    const Filament& fil = filaments[k];
    rows += format_exact(t) + "," + std::to_string(k) + "," + (fil.closed ? "1" : "0") + "," +
            std::to_string(fil.points.size()) + "," + format_exact(fil.length()) + "," +
            (fil.closed ? format_exact(fil.radius()) : std::string()) + "\n";
  }
  if (!rows.empty() && (std::fputs(rows.c_str(), out_.get()) < 0 || std::fflush(out_.get()) != 0))
    throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
  if (frames_out_) frames_out_->write(index, t, filaments);
  if (frames_ > 0 && t <= last_t_) return;
  ++frames_;
  last_t_ = t;
  count_at_end_ = static_cast<index_t>(filaments.size());
  if (filaments.size() == 1 && filaments[0].closed) {
    const real r = filaments[0].radius();
    ring_t_.push_back(t);
    ring_r2_.push_back(r * r);
  }
}

void FilamentTracker::save(SchemeState& state) {
  state.add("filaments.state",
            {static_cast<real>(frames_), last_t_, static_cast<real>(count_at_end_)});
  state.add("filaments.t", ring_t_);
  state.add("filaments.r2", ring_r2_);
}

std::string FilamentTracker::restore(const SchemeState& state) {
  if (!state.has("filaments.state"))
    return "the checkpoint holds no filament state (filaments were off): the ring's radius series "
           "in summary.json starts at the restart";
  const std::vector<real>& s = state.get_finite("filaments.state", 3);
  const std::vector<real>* t = state.find("filaments.t");
  const std::vector<real>* r2 = state.find("filaments.r2");
  if (t == nullptr || r2 == nullptr || t->size() != r2->size())
    throw IoError("checkpoint: the filament state is incomplete (filaments.t and filaments.r2 "
                  "must be there, as long as each other)");
  frames_ = checkpoint_count(s[0], index_t{1} << 40, "filaments.state[0] (frames)");
  last_t_ = s[1];
  count_at_end_ = checkpoint_count(s[2], index_t{1} << 40, "filaments.state[2] (filaments)");
  ring_t_ = *t;
  ring_r2_ = *r2;
  return {};
}

void FilamentTracker::add_summary(JsonObject& summary) const {
  JsonObject out;
  out.add("count_at_end", count_at_end_).add("ring_frames", static_cast<index_t>(ring_t_.size()));
  // d(R^2)/dt over the settled ring, with its uncertainty and window.
  if (const std::optional<RingRate> r = ring_rate(ring_t_, ring_r2_, settle_)) {
    out.add("ring_radius2_rate", r->rate)
        .add("ring_radius2_rate_error", r->error)
        .add("ring_fit_from", r->from)
        .add("ring_fit_to", r->to)
        .add("ring_fit_frames", r->frames)
        .add("ring_radius2_rate_whole", r->whole_rate);
  } else {
    for (const char* key : {"ring_radius2_rate", "ring_radius2_rate_error", "ring_fit_from",
                            "ring_fit_to", "ring_fit_frames", "ring_radius2_rate_whole"})
      out.add_null(key);
  }
  out.add("v_iso", v_iso_).add("w_iso", w_iso_);
  summary.add("filaments", out);
}

}  // namespace fhn
