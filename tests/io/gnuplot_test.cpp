// Running gnuplot: a failed write of the script or the picture is an error, and gnuplot is
// looked for on the PATH only.

#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/io/gnuplot.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

TEST(Gnuplot, AFullDiskFailsTheScript) {
  EXPECT_THROW(dlbkit::run_gnuplot("/dev/full", "plot x\n"), dlbkit::InputError);
}

TEST(Gnuplot, APictureGnuplotCouldNotWriteIsAnError) {
  if (!dlbkit::gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  const std::string dir = dlbkit::test::temp_dir("gnuplot");
  std::filesystem::create_directories(dir);
  const std::string script = dlbkit::gnuplot_png_header("/dev/full", 200, 100, false) + "plot x\n";
  EXPECT_THROW(dlbkit::run_gnuplot(dir + "/full.gp", script), std::runtime_error);
  // The same script with a writable picture passes.
  const std::string good = dlbkit::gnuplot_png_header(dir + "/ok.png", 200, 100, false) + "plot x\n";
  EXPECT_NO_THROW(dlbkit::run_gnuplot(dir + "/ok.gp", good));
  std::filesystem::remove_all(dir);
}

TEST(Gnuplot, IsFoundOnThePathOnly) {
  const char* path = std::getenv("PATH");
  const std::string saved = path ? path : "";
  ::setenv("PATH", "/nonexistent", 1);
  EXPECT_FALSE(dlbkit::gnuplot_installed());
  ::setenv("PATH", saved.c_str(), 1);
}
