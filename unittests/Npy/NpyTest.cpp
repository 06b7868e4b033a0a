//===- NpyTest.cpp - .npy reading and writing -----------------------------===//

#include "tpu/Npy/Npy.h"

#include "gtest/gtest.h"

#include <fstream>
#include <string>

using namespace tpu;

namespace {

std::vector<uint8_t> npy(const std::string &header, size_t dataBytes,
                         uint8_t major = 1) {
  std::vector<uint8_t> bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  if (major == 1) {
    bytes.push_back(uint8_t(header.size()));
    bytes.push_back(uint8_t(header.size() >> 8));
  } else {
    for (int i = 0; i < 4; ++i)
      bytes.push_back(uint8_t(header.size() >> (8 * i)));
  }
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.resize(bytes.size() + dataBytes, 0);
  return bytes;
}

TEST(NpyTest, RoundTrips) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{}, {5}, {7, 300}, {2, 3, 4}}) {
    NpyArray array;
    array.elementType =
        shape.size() == 1 ? isa::ElementType::I32 : isa::ElementType::F32;
    array.shape = shape;
    int64_t count = 1;
    for (int64_t dim : shape)
      count *= dim;
    for (int64_t i = 0; i < count; ++i)
      array.words.push_back(uint32_t(i * 2654435761u));
    std::vector<uint8_t> bytes = serializeNpy(array);
    EXPECT_EQ((bytes.size() - array.words.size() * 4) % 64, 0u);
    absl::StatusOr<NpyArray> parsed = parseNpy(bytes, "x.npy");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->shape, shape);
    EXPECT_EQ(parsed->elementType, array.elementType);
    EXPECT_EQ(parsed->words, array.words);
  }
}

TEST(NpyTest, ReadsVersion2Headers) {
  absl::StatusOr<NpyArray> parsed = parseNpy(
      npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n", 16,
          2),
      "x.npy");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->shape, (std::vector<int64_t>{2, 2}));
}

TEST(NpyTest, ErrorsSayWhatIsWrong) {
  auto message = [](const std::vector<uint8_t> &bytes) {
    absl::StatusOr<NpyArray> parsed = parseNpy(bytes, "x.npy");
    return parsed.ok() ? std::string("ok")
                       : std::string(parsed.status().message());
  };
  EXPECT_EQ(message(npy("{'descr': '<f8', 'fortran_order': False, "
                        "'shape': (2,), }",
                        16)),
            "x.npy: dtype '<f8' is not supported; inputs must be float32 "
            "('<f4') or int32 ('<i4'): convert with a.astype(numpy.float32)");
  EXPECT_EQ(message(npy("{'descr': '<f4', 'fortran_order': True, "
                        "'shape': (2, 2), }",
                        16)),
            "x.npy: the array is in Fortran order; save a C-ordered copy "
            "(numpy.ascontiguousarray)");
  EXPECT_EQ(message(npy("{'descr': '>f4', 'fortran_order': False, "
                        "'shape': (2,), }",
                        8))
                .find("dtype '>f4' is not supported"),
            size_t(7));
  EXPECT_EQ(message(npy("{'descr': '<f4', 'fortran_order': False, "
                        "'shape': (2, 3), }",
                        20)),
            "x.npy: not a valid .npy file: shape (2, 3) needs 24 data bytes "
            "but the file holds 20 (write it with numpy.save)");
  EXPECT_EQ(message({'x'}), "x.npy: not a valid .npy file: it does not start "
                            "with \\x93NUMPY (write it with numpy.save)");
  EXPECT_NE(message(npy("{'descr': '<f4', 'fortran_order': False, "
                        "'shape': (-2,), }",
                        0))
                .find("bad shape"),
            std::string::npos);
  std::vector<uint8_t> truncated = npy("{'descr': '<f4'}", 0);
  truncated.resize(14);
  EXPECT_EQ(message(truncated),
            "x.npy: not a valid .npy file: the header is truncated (write it "
            "with numpy.save)");
}

TEST(NpyTest, ReadingVetsTheHeaderBeforeTheData) {
  std::string path = std::string(::testing::TempDir()) + "/npy-test-vet.npy";
  NpyArray array;
  array.shape = {4, 5};
  array.words.assign(20, 7);
  ASSERT_TRUE(writeNpyFile(path, array).ok());

  // The caller sees the header, and its refusal is the error.
  bool vetted = false;
  absl::StatusOr<NpyArray> read =
      readNpyFile(path, [&](const NpyHeader &header) {
        vetted = true;
        EXPECT_EQ(header.shape, (std::vector<int64_t>{4, 5}));
        EXPECT_EQ(header.numElements, 20u);
        return absl::InvalidArgumentError("wrong shape for argument 'a'");
      });
  EXPECT_TRUE(vetted);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(), "wrong shape for argument 'a'");

  read = readNpyFile(path, [](const NpyHeader &) { return absl::OkStatus(); });
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->words, array.words);
}

TEST(NpyTest, AHeaderCannotClaimMoreThanTheFileHolds) {
  // A 1 TiB shape over 16 bytes of data: refused from the header and the
  // file's size, before anything is allocated for the data.
  std::string path = std::string(::testing::TempDir()) + "/npy-test-claims.npy";
  std::vector<uint8_t> bytes =
      npy("{'descr': '<f4', 'fortran_order': False, 'shape': (262144, "
          "1048576), }",
          16);
  {
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  }
  bool vetted = false;
  absl::StatusOr<NpyArray> read = readNpyFile(path, [&](const NpyHeader &) {
    vetted = true;
    return absl::OkStatus();
  });
  EXPECT_FALSE(vetted);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find(
                "needs 1099511627776 data bytes but the file holds 16"),
            std::string::npos)
      << read.status();

  // A version-2 header may say it is 4 GiB long; it may not be.
  std::vector<uint8_t> huge = npy("{}", 0, 2);
  huge[8] = huge[9] = huge[10] = huge[11] = 0xFF;
  absl::StatusOr<NpyArray> parsed = parseNpy(huge, "h.npy");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("more than the 65536 allowed"),
            std::string::npos)
      << parsed.status();
}

} // namespace
