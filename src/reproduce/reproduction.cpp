#include "reproduce/ahmad.hpp"
#include "reproduce/beyond.hpp"
#include "reproduce/cybenko.hpp"
#include "reproduce/cybenko_table2.hpp"
#include "reproduce/henrich.hpp"
#include "reproduce/lbaf.hpp"
#include "reproduce/optimum.hpp"
#include "reproduce/phases.hpp"
#include "reproduce/predict.hpp"
#include "reproduce/reproduction.hpp"
#include "reproduce/wlr93.hpp"
#include "reproduce/zambonelli.hpp"

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
    for (auto& info : phases_reproductions()) r.add(std::move(info));
    r.add(phases_optimum_reproduction());
    r.add(phases_lbaf_reproduction());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
