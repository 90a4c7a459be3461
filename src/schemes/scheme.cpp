#include "schemes/scheme.hpp"

#include "schemes/explicit_cpu.hpp"

namespace fhn {

std::unique_ptr<Scheme> make_scheme(const Config& config, const Problem& problem) {
  switch (config.scheme.type) {
    case SchemeType::explicit_euler:
      return std::make_unique<ExplicitCpu>(problem);
  }
  return nullptr;
}

}  // namespace fhn
