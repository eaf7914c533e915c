#include <dlbkit/apps/builtin_apps.hpp>

namespace dlbkit {

const AppRegistry& builtin_apps() {
  static const AppRegistry registry = [] {
    AppRegistry r;
    r.add(busy_app_info());
    r.add(bnb_app_info());
    r.add(uts_app_info());
    r.add(queens_app_info());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
