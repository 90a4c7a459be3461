#include "grid/iso_cells.hpp"

namespace fhn {

void straddling_cells(const Domain& domain, const real* v, const real* w,
                      const std::uint8_t* outside, real v_iso, real w_iso,
                      std::vector<IsoCell>& out) {
  const index_t nx = domain.nodes[0], ny = domain.nodes[1];
  for (index_t j = 0; j + 1 < ny; ++j) {
    for (index_t i = 0; i + 1 < nx; ++i) {
      const index_t c[4] = {i + nx * j, i + 1 + nx * j, i + nx * (j + 1), i + 1 + nx * (j + 1)};
      if (outside && (outside[c[0]] | outside[c[1]] | outside[c[2]] | outside[c[3]])) continue;
      if (!changes_sign(v[c[0]] - v_iso, v[c[1]] - v_iso, v[c[2]] - v_iso, v[c[3]] - v_iso) ||
          !changes_sign(w[c[0]] - w_iso, w[c[1]] - w_iso, w[c[2]] - w_iso, w[c[3]] - w_iso))
        continue;
      IsoCell cell;
      cell.i = i;
      cell.j = j;
      for (int k = 0; k < 4; ++k) {
        cell.v[k] = v[c[k]];
        cell.w[k] = w[c[k]];
      }
      out.push_back(cell);
    }
  }
}

index_t excited_nodes(const real* v, index_t n, const std::uint8_t* outside, real v_iso) {
  index_t excited = 0;
  for (index_t node = 0; node < n; ++node)
    excited += v[node] >= v_iso && !(outside && outside[node]) ? 1 : 0;
  return excited;
}

}  // namespace fhn
