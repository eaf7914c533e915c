#pragma once
/// \file
/// The files of gnuplot pictures as atomic outputs (io/atomic_file.hpp): CSV tables,
/// scripts and pictures are written under temporary names and take their own names
/// together at commit(). An error before (gnuplot failed, a full disk) leaves none of them,
/// and older files of those names as they were.
///
/// ```
/// dlbkit::PlotFiles files;
/// files.add_text("out/t.csv", csv);
/// files.draw("out/f.gp", "out/f.png", [](const dlbkit::PlotFiles::Names& name) {
///   return dlbkit::gnuplot_png_header(name("out/f.png"), 800, 480) + "plot '" + name("out/t.csv") + "' using 1:2\n";
/// });
/// files.commit();
/// ```

#include <dlbkit/io/atomic_file.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dlbkit {

class PlotFiles {
public:
  /// The name a script gives a file of this set, from its final path.
  using Names = std::function<std::string(const std::string&)>;

  /// A file of text (a CSV table), written now under its temporary name.
  void add_text(const std::string& path, std::string_view text);
  /// Draws `png` with gnuplot (gnuplot.hpp's run_gnuplot): `script` makes the script from the
  /// files' names. gnuplot runs a copy that names the temporaries; the script kept at
  /// `script_path` names the final files, for a user to run again.
  void draw(const std::string& script_path, const std::string& png,
            const std::function<std::string(const Names&)>& script);
  /// Puts every file in place.
  void commit();

private:
  AtomicFile& open(const std::string& path);
  std::vector<std::unique_ptr<AtomicFile>> files_;
};

}  // namespace dlbkit
