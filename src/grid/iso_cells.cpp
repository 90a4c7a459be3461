#include "grid/iso_cells.hpp"

namespace fhn {

void straddling_cells(const Domain& domain, const real* v, const real* w,
                      const std::uint8_t* outside, real v_iso, real w_iso,
                      std::vector<IsoCell>& out) {
  const index_t n[3] = {domain.nodes[0], domain.nodes[1], domain.nodes[2]};
  const index_t stride[3] = {1, n[0], n[0] * n[1]};
  // A sheet's squares are normal to z alone (n_z = 1 leaves the others none).
  for (int normal = 0; normal < 3; ++normal) {
    const int a = span_a(normal), b = span_b(normal);
    // The square at `at` needs at[a] + 1 < n[a] and at[b] + 1 < n[b].
    index_t last[3] = {n[0], n[1], n[2]};
    last[a] -= 1;
    last[b] -= 1;
    index_t at[3];
    for (at[2] = 0; at[2] < last[2]; ++at[2])
      for (at[1] = 0; at[1] < last[1]; ++at[1])
        for (at[0] = 0; at[0] < last[0]; ++at[0]) {
          const index_t c00 = at[0] + stride[1] * at[1] + stride[2] * at[2];
          const index_t c[4] = {c00, c00 + stride[a], c00 + stride[b], c00 + stride[a] + stride[b]};
          if (outside && (outside[c[0]] | outside[c[1]] | outside[c[2]] | outside[c[3]])) continue;
          if (!changes_sign(v[c[0]] - v_iso, v[c[1]] - v_iso, v[c[2]] - v_iso, v[c[3]] - v_iso) ||
              !changes_sign(w[c[0]] - w_iso, w[c[1]] - w_iso, w[c[2]] - w_iso, w[c[3]] - w_iso))
            continue;
          out.emplace_back();
          take_square(out.back(), at, normal, v, w, c);
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
