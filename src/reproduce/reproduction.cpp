#include <dlbkit/reproduce/reproduction.hpp>
#include <dlbkit/reproduce/wlr93.hpp>

namespace dlbkit {

const ReproductionRegistry& builtin_reproductions() {
  static const ReproductionRegistry registry = [] {
    ReproductionRegistry r;
    for (auto& info : wlr93_reproductions()) r.add(std::move(info));
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
