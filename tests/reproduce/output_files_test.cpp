// The gnuplot files a reproduction writes (script, PNG) report a failed write; the CSV files are
// written by write_text_file, whose failed write the io tests check.

#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include "reproduce/gnuplot.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

TEST(ReproductionFiles, AFullDiskFailsTheScript) {
  EXPECT_THROW(dlbkit::run_gnuplot("/dev/full", "plot x\n"), dlbkit::InputError);
}

TEST(ReproductionFiles, APictureGnuplotCouldNotWriteIsAnError) {
  if (std::system("gnuplot --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  const std::string dir = dlbkit::test::temp_dir("gnuplot");
  std::filesystem::create_directories(dir);
  const std::string script = dlbkit::gnuplot_png_header("/dev/full", 200, 100, false) + "plot x\n";
  EXPECT_THROW(dlbkit::run_gnuplot(dir + "/full.gp", script), std::runtime_error);
  // The same script with a writable picture passes.
  const std::string good = dlbkit::gnuplot_png_header(dir + "/ok.png", 200, 100, false) + "plot x\n";
  EXPECT_NO_THROW(dlbkit::run_gnuplot(dir + "/ok.gp", good));
  std::filesystem::remove_all(dir);
}
