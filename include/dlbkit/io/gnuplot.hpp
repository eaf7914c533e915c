#pragma once
/// \file
/// Running gnuplot: the start of a script that draws a PNG, gnuplot's quoting, and the run
/// itself, checked for a picture actually written. The reproductions' renderer and the load
/// picture (sim/load_picture.hpp) draw with it.
///
/// ```
/// dlbkit::run_gnuplot("out/f.gp", dlbkit::gnuplot_png_header("out/f.png", 800, 480) + "plot x\n");  // out/f.png
/// ```

#include <string>

namespace dlbkit {

/// Whether a gnuplot program is on the PATH (checked before a long run that needs it).
bool gnuplot_installed();

/// The start of every figure's gnuplot script: a PNG of width x height pixels written to
/// `png`, comma-separated data. `enhanced_text` lets labels use gnuplot's ^ and _ markup.
std::string gnuplot_png_header(const std::string& png, int width, int height, bool enhanced_text = false);

/// `text` as a gnuplot single-quoted string ('' stands for ').
std::string gnuplot_string(const std::string& text);

/// Writes `script` to a temporary beside `script_path` and runs gnuplot on it (the script sets
/// its own output file); the temporary is removed afterwards (plot_files.hpp keeps scripts).
/// Throws InputError when the script cannot be written, std::runtime_error when gnuplot is
/// missing (naming the Debian package gnuplot-nox), fails, or writes no picture.
void run_gnuplot(const std::string& script_path, const std::string& script);

}  // namespace dlbkit
