#include <dlbkit/io/gnuplot.hpp>
#include <dlbkit/io/plot_files.hpp>
#include <dlbkit/sim/load_picture.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <string>

namespace dlbkit {

void plot_load(const LoadHistory& history, const std::string& png, const std::string& title) {
  // Rows: one per node and interval, at the interval's middle (gnuplot's image cells).
  std::string csv = "time_s,node,load\n";
  const double width = to_seconds(history.interval());
  double peak = 0;
  for (NodeId v = 0; v < history.nodes(); ++v)
    for (std::size_t i = 0; i < history.intervals(); ++i) {
      const double load = history.load(v, i);
      peak = std::max(peak, load);
      fmt::format_to(std::back_inserter(csv), "{:.6g},{},{:.6g}\n", (static_cast<double>(i) + 0.5) * width, v, load);
    }
  PlotFiles files;
  files.add_text(png + ".csv", csv);
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
