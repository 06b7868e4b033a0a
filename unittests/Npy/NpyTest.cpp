//===- NpyTest.cpp - .npy reading and writing -----------------------------===//

#include "tpu/Npy/Npy.h"

#include "gtest/gtest.h"

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

} // namespace
