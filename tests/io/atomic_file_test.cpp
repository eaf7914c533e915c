// Atomic outputs: a file appears whole or not at all, and a failed or abandoned write leaves
// an existing file as it was and no temporary beside it.

#include <dlbkit/error.hpp>
#include <dlbkit/io/atomic_file.hpp>
#include <dlbkit/io/output_file.hpp>
#include <dlbkit/io/temporary_files.hpp>

#include "../support/temp_path.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string text_of(const std::string& path) {
  std::stringstream back;
  back << std::ifstream(path).rdbuf();
  return back.str();
}

// The names in `dir`, to see that nothing was left beside the output.
std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

struct AtomicFileTest : ::testing::Test {
  std::string dir = dlbkit::test::temp_dir("atomic");
  std::string path = dir + "/out.txt";
  void SetUp() override {
    fs::create_directories(dir);
    std::ofstream(path) << "old\n";
  }
  void TearDown() override { fs::remove_all(dir); }
};

TEST_F(AtomicFileTest, ReplacesTheFileOnCommitOnly) {
  dlbkit::AtomicFile out(path);
  out.write("new\n");
  EXPECT_EQ(text_of(path), "old\n");
  EXPECT_NE(out.written(), path);
  out.commit();
  EXPECT_EQ(text_of(path), "new\n");
  EXPECT_EQ(entries(dir), 1u);
}

TEST_F(AtomicFileTest, AnAbandonedFileLeavesTheOldOneAndNoTemporary) {
  {
    dlbkit::AtomicFile out(path);
    out.write("partial");
    EXPECT_TRUE(fs::exists(out.written()));
  }
  EXPECT_EQ(text_of(path), "old\n");
  EXPECT_EQ(entries(dir), 1u);
}

TEST_F(AtomicFileTest, KeepsTheModeOfTheFileItReplaces) {
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  dlbkit::write_text_file(path, "x");
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST_F(AtomicFileTest, ASignalHandlerRemovesTheTemporaries) {
  dlbkit::AtomicFile out(path);
  out.write("partial");
  dlbkit::remove_temporary_files();
  EXPECT_FALSE(fs::exists(out.written()));
  EXPECT_EQ(text_of(path), "old\n");
}

TEST_F(AtomicFileTest, AFullDeviceIsWrittenDirectlyAndItsErrorNamed) {
  dlbkit::AtomicFile out("/dev/full");
  EXPECT_EQ(out.written(), "/dev/full");
  out.write("x");
  try {
    out.commit();
    FAIL() << "no error";
  } catch (const dlbkit::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/full: cannot be written (No space left on device); accepted: a path to a "
                                     "writable file");
  }
}

TEST_F(AtomicFileTest, AFileWithoutWritePermissionIsNotReplaced) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write any file";
  fs::permissions(path, fs::perms::owner_read);
  EXPECT_THROW(dlbkit::AtomicFile out(path), dlbkit::InputError);
  fs::permissions(path, fs::perms::owner_all);
  EXPECT_EQ(text_of(path), "old\n");
}

TEST_F(AtomicFileTest, ADirectoryIsAnError) {
  try {
    dlbkit::AtomicFile out(dir);
    FAIL() << "no error";
  } catch (const dlbkit::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("Is a directory"), std::string::npos) << e.what();
  }
  EXPECT_EQ(entries(dir), 1u);
}

}  // namespace
