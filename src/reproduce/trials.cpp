#include "reproduce/trials.hpp"

#include <dlbkit/io/output_file.hpp>
#include <dlbkit/sim/nobal.hpp>

#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace dlbkit {

void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& f) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) {
      try {
        f(i);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next = count;  // stop handing out work
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(1u, jobs); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

std::vector<std::vector<SimulationResult>> simulate_seeds(const Topology& topology,
                                                          const std::vector<StrategyChoice>& strategies,
                                                          const WorkloadChoice& workload, const CostModel& cost,
                                                          std::size_t runs, unsigned jobs) {
  std::vector<std::vector<SimulationResult>> results(strategies.size(), std::vector<SimulationResult>(runs));
  parallel_for(strategies.size() * runs, jobs, [&](std::size_t i) {
    const std::size_t s = i / runs, r = i % runs;
    SimulationConfig config{.topology = &topology, .strategy = strategies[s], .cost = cost, .seed = r + 1};
    if (is_nobal(strategies[s])) {
      results[s][r] = simulate_nobal(config, workload);  // per node when that is exact
      return;
    }
    auto w = workload.create();
    config.workload = w.get();
    results[s][r] = simulate(config);
  });
  return results;
}

std::string path_in(const ReproductionOptions& options, const std::string& file) {
  return options.out_dir + "/" + file;
}

std::string csv_number(double x) { return fmt::format("{:.6g}", x); }

void write_csv(const std::string& path, const std::vector<std::string>& header,
               const std::vector<std::vector<std::string>>& rows) {
  std::string text = fmt::format("{}\n", fmt::join(header, ","));
  for (const auto& row : rows) text += fmt::format("{}\n", fmt::join(row, ","));
  write_text_file(path, text);
}

std::string gnuplot_png_header(const std::string& png, int width, int height, bool enhanced_text) {
  return fmt::format("set terminal pngcairo size {},{}{}\nset output '{}'\nset datafile separator ','\n", width,
                     height, enhanced_text ? "" : " noenhanced", png);
}

void run_gnuplot(const std::string& script_path, const std::string& script) {
  write_text_file(script_path, script);
  const std::string command = fmt::format("gnuplot '{}' 2>&1", script_path);
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start gnuplot");
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  if (status != 0) {
    if (output.find("not found") != std::string::npos)
      throw std::runtime_error("gnuplot is not installed (Debian package gnuplot-nox); the CSV files were written");
    throw std::runtime_error(fmt::format("gnuplot failed on {}: {}", script_path, output));
  }
  // gnuplot exits 0 even when it cannot write its picture (a full disk): check each one.
  for (std::size_t at = script.find("set output '"); at != std::string::npos; at = script.find("set output '", at)) {
    at += 12;
    const std::string png = script.substr(at, script.find('\'', at) - at);
    std::error_code ec;
    if (std::filesystem::file_size(png, ec) == 0 || ec)
      throw std::runtime_error(fmt::format("gnuplot wrote no picture to {} (script {})", png, script_path));
  }
}

void make_directory(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create directory {}: {}", path, ec.message()));
}

}  // namespace dlbkit
