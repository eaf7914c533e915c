#include <dlbkit/error.hpp>

#include <cstdlib>
#include <fmt/format.h>

namespace dlbkit {

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}

int print_error(const std::exception& error) {
  const bool input = dynamic_cast<const InputError*>(&error) != nullptr;
  if (launcher_rank() <= 0) fmt::print(stderr, "dlbkit: {}: {}\n", input ? "error" : "failed", error.what());
  return input ? 2 : 1;
}

}  // namespace dlbkit
