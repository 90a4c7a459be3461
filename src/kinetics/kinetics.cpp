#include "kinetics/kinetics.hpp"

namespace fhn {
namespace {

template <std::size_t I = 0>
bool make_form(const std::string& name, Kinetics& out) {
  if constexpr (I == std::variant_size_v<Kinetics>) {
    return false;
  } else {
    using Form = std::variant_alternative_t<I, Kinetics>;
    if (name == Form::kName) {
      out = Form{};
      return true;
    }
    return make_form<I + 1>(name, out);
  }
}

template <std::size_t... I>
std::vector<std::string> names_of(std::index_sequence<I...>) {
  return {std::variant_alternative_t<I, Kinetics>::kName...};
}

}  // namespace

std::vector<std::string> kinetics_names() {
  return names_of(std::make_index_sequence<std::variant_size_v<Kinetics>>{});
}

std::string kinetics_parameters_text(const Kinetics& kinetics) {
  std::string text;
  with_kinetics(kinetics, [&](const auto& k) {
    k.parameters(k, [&](const char* key, const real& value, const Interval&) {
      text += (text.empty() ? "" : ", ") + std::string(key) + " = " + format_exact(value);
    });
  });
  return text;
}

bool make_kinetics(const std::string& name, Kinetics& out) { return make_form(name, out); }

}  // namespace fhn
