#include "reproduce/gnuplot.hpp"
#include "reproduce/plot_files.hpp"
#include "reproduce/load_picture.hpp"
#include "reproduce/render.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <string_view>
#include <unistd.h>

namespace dlbkit {

bool gnuplot_installed() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  for (std::string_view rest = path; !rest.empty();) {
    const std::size_t colon = std::min(rest.find(':'), rest.size());
    const std::string dir(rest.substr(0, colon));
    const std::string program = (dir.empty() ? std::string(".") : dir) + "/gnuplot";
    if (::access(program.c_str(), X_OK) == 0) return true;
    rest.remove_prefix(std::min(colon + 1, rest.size()));
  }
  return false;
}

void plot_load(const LoadHistory& history, const std::string& png, const std::string& title) {
  // Rows: one per node and interval, at the interval's middle (gnuplot's image cells).
  Table csv{.name = "load", .columns = {{.name = "time_s"}, {.name = "node"}, {.name = "load"}}};
  const double width = to_seconds(history.interval());
  double peak = 0;
  for (NodeId v = 0; v < history.nodes(); ++v)
    for (std::size_t i = 0; i < history.intervals(); ++i) {
      const double load = history.load(v, i);
      peak = std::max(peak, load);
      csv.rows.push_back({(static_cast<double>(i) + 0.5) * width, std::int64_t{v}, load});
    }
  PlotFiles files;
  files.add_text(png + ".csv", table_csv(csv));
  const double end = width * static_cast<double>(history.intervals());
  files.draw(png + ".gp", png, [&](const PlotFiles::Names& name) {
    return gnuplot_png_header(name(png), 900, 160 + static_cast<int>(std::min<std::size_t>(history.nodes(), 64) * 6)) +
           fmt::format("set title {}\nset xlabel 'time (s)'\nset ylabel 'node'\nset cblabel 'load (tasks)'\n"
                       "set xrange [0:{}]\nset yrange [-0.5:{}]\nset cbrange [0:{}]\nset palette defined "
                       "(0 'white', 1 '#fdd49e', 2 '#fc8d59', 3 '#b30000')\nset key off\n"
                       "plot '{}' every ::1 using 1:2:3 with image\n",
                       gnuplot_string(title), end, static_cast<double>(history.nodes()) - 0.5, std::max(1.0, peak),
                       name(png + ".csv"));
  });
  files.commit();
}

}  // namespace dlbkit
