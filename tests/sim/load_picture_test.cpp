// The load picture: its data, one row per node and interval, and the picture drawn.

#include "../support/temp_path.hpp"

#include <dlbkit/io/gnuplot.hpp>
#include <dlbkit/sim/load_picture.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace dlbkit {
namespace {

TEST(LoadPicture, WritesEveryNodesLoadPerIntervalAndThePicture) {
  if (!gnuplot_installed()) GTEST_SKIP() << "gnuplot is not installed";
  LoadHistory history(2, 4);
  history.on_load(0, 3, 0);  // node 0 holds 3 tasks, node 1 none, then 1 from 2 us on
  history.on_load(1, 1, 2 * kMicrosecond);
  history.finish(4 * kMicrosecond);
  const std::string dir = test::temp_dir("load-picture");
  std::filesystem::create_directories(dir);
  plot_load(history, dir + "/load.png", "two nodes");
  std::ifstream csv(dir + "/load.png.csv");
  std::stringstream text;
  text << csv.rdbuf();
  EXPECT_EQ(text.str(), "time_s,node,load\n5e-07,0,3\n1.5e-06,0,3\n2.5e-06,0,3\n3.5e-06,0,3\n"
                        "5e-07,1,0\n1.5e-06,1,0\n2.5e-06,1,1\n3.5e-06,1,1\n");
  EXPECT_TRUE(std::filesystem::file_size(dir + "/load.png") > 0);
  EXPECT_TRUE(std::filesystem::exists(dir + "/load.png.gp"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dlbkit
