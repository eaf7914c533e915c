#include <dlbkit/sim/meter.hpp>

namespace dlbkit {

SimulationMeter& simulation_meter() {
  static SimulationMeter meter;
  return meter;
}

}  // namespace dlbkit
