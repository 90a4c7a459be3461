#pragma once
// The spelling of every enumerated config value: one table per enum, shared by the loader
// (what is accepted), the emitter (what is written back) and messages/logs.
#include <string>
#include <utility>
#include <vector>

#include "config/config.hpp"

namespace fhn {

template <class E>
using NameTable = std::vector<std::pair<std::string, E>>;

inline const NameTable<SchemeType>& scheme_type_names() {
  static const NameTable<SchemeType> table{{"explicit", SchemeType::explicit_euler},
                                           {"adaptive_explicit", SchemeType::adaptive_explicit},
                                           {"crank_nicolson", SchemeType::crank_nicolson}};
  return table;
}
inline const NameTable<Formulation>& formulation_names() {
  static const NameTable<Formulation> table{{"newton", Formulation::newton}, {"adi", Formulation::adi}};
  return table;
}
inline const NameTable<Backend>& backend_names() {
  static const NameTable<Backend> table{{"cpu", Backend::cpu}, {"cuda", Backend::cuda}};
  return table;
}
inline const NameTable<ExplicitLimitCheck>& explicit_limit_names() {
  static const NameTable<ExplicitLimitCheck> table{{"reaction", ExplicitLimitCheck::reaction},
                                                   {"diffusion", ExplicitLimitCheck::diffusion}};
  return table;
}
inline const NameTable<WUpdate>& w_update_names() {
  static const NameTable<WUpdate> table{{"trapezoidal", WUpdate::trapezoidal},
                                        {"leapfrog", WUpdate::leapfrog}};
  return table;
}
inline const NameTable<solvers::TridiagonalBackend>& tridiagonal_names() {
  static const NameTable<solvers::TridiagonalBackend> table = [] {
    using solvers::TridiagonalBackend;
    NameTable<TridiagonalBackend> t;
    for (auto b : {TridiagonalBackend::thomas, TridiagonalBackend::thomas_partitioned,
                   TridiagonalBackend::partitioned,
                   TridiagonalBackend::cyclic_reduction,
                   TridiagonalBackend::cusparse, TridiagonalBackend::cusparse_pivot})
      t.emplace_back(std::string(solvers::backend_name(b)), b);
    return t;
  }();
  return table;
}
inline const NameTable<BoundaryType>& boundary_type_names() {
  static const NameTable<BoundaryType> table{{"no_flux", BoundaryType::no_flux},
                                             {"dirichlet", BoundaryType::dirichlet}};
  return table;
}
inline const NameTable<TissueShape>& tissue_shape_names() {
  static const NameTable<TissueShape> table{{"disc", TissueShape::disc},
                                            {"rectangle", TissueShape::rectangle},
                                            {"polygon", TissueShape::polygon},
                                            {"image", TissueShape::image}};
  return table;
}
inline const NameTable<Coverage>& coverage_names() {
  static const NameTable<Coverage> table{{"overlap", Coverage::overlap},
                                         {"nodes", Coverage::nodes}};
  return table;
}
inline const NameTable<FieldType>& field_type_names() {
  static const NameTable<FieldType> table{{"region", FieldType::region},
                                          {"gradient", FieldType::gradient},
                                          {"image", FieldType::image}};
  return table;
}

inline const NameTable<ProfileType>& profile_type_names() {
  static const NameTable<ProfileType> table{{"gaussian", ProfileType::gaussian},
                                            {"constant", ProfileType::constant},
                                            {"step", ProfileType::step},
                                            {"tanh_front", ProfileType::tanh_front},
                                            {"rectangle", ProfileType::rectangle},
                                            {"rest", ProfileType::rest},
                                            {"spiral", ProfileType::spiral},
                                            {"scroll_ring", ProfileType::scroll_ring}};
  return table;
}
inline const NameTable<Precision>& precision_names() {
  static const NameTable<Precision> table{{"float64", Precision::float64},
                                          {"float32", Precision::float32}};
  return table;
}

// Every spelling of a table, in its order (what messages list as allowed).
template <class E>
std::vector<std::string> names_of(const NameTable<E>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.push_back(entry.first);
  return names;
}

template <class E>
const std::string& name_of(const NameTable<E>& table, E value) {
  for (const auto& entry : table)
    if (entry.second == value) return entry.first;
  return table.front().first;  // unreachable: every enumerator has a row
}

}  // namespace fhn
