#include <dlbkit/reproduce/ahmad.hpp>
#include <dlbkit/reproduce/beyond.hpp>
#include <dlbkit/reproduce/cybenko.hpp>
#include <dlbkit/reproduce/cybenko_table2.hpp>
#include <dlbkit/reproduce/henrich.hpp>
#include <dlbkit/reproduce/predict.hpp>
#include <dlbkit/reproduce/reproduction.hpp>
#include <dlbkit/reproduce/wlr93.hpp>
#include <dlbkit/reproduce/zambonelli.hpp>

namespace dlbkit {

const ReproductionRegistry& builtin_reproductions() {
  static const ReproductionRegistry registry = [] {
    ReproductionRegistry r;
    for (auto& info : wlr93_reproductions()) r.add(std::move(info));
    for (auto& info : cybenko_reproductions()) r.add(std::move(info));
    r.add(cybenko_table2_reproduction());
    for (auto& info : henrich_reproductions()) r.add(std::move(info));
    for (auto& info : zambonelli_reproductions()) r.add(std::move(info));
    for (auto& info : ahmad_reproductions()) r.add(std::move(info));
    for (auto& info : beyond_reproductions()) r.add(std::move(info));
    r.add(predict_runtime_reproduction());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
