// Code objects and executables: a real hipcc-built code object (globals.hip) loaded into device
// memory, its symbols' addresses checked against llvm-readelf's listing of the same object.
#include <fcntl.h>
#include <hsa/hsa_ven_amd_loader.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "HsaFixture.h"

namespace vgpu::hsa::test {
namespace {

const std::string kDir = VGPU_HSA_TEST_KERNEL_DIR;

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

struct ElfSymbol {
  uint64_t value = 0, size = 0;
};

// The .dynsym lines of `llvm-readelf -s --wide`: "Num: Value Size Type Bind Vis Ndx Name".
std::map<std::string, ElfSymbol> readelfSymbols(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::map<std::string, ElfSymbol> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string num, value, size, type, bind, vis, ndx, name;
    if (!(fields >> num >> value >> size >> type >> bind >> vis >> ndx >> name)) continue;
    if (num.back() != ':' || type != "OBJECT") continue;
    out[name] = ElfSymbol{std::stoull(value, nullptr, 16), std::stoull(size, nullptr, 0)};
  }
  return out;
}

class Executables : public HsaFixture {
 protected:
  hsa_status_t load(const std::string& file, hsa_executable_t* exec) {
    const std::vector<uint8_t> bytes = readFile(kDir + "/" + file);
    hsa_code_object_reader_t reader;
    EXPECT_EQ(hsa_code_object_reader_create_from_memory(bytes.data(), bytes.size(), &reader),
              HSA_STATUS_SUCCESS);
    EXPECT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                        nullptr, exec),
              HSA_STATUS_SUCCESS);
    hsa_status_t s = hsa_executable_load_agent_code_object(*exec, gpu_, reader, nullptr, nullptr);
    EXPECT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
    return s;
  }

  hsa_executable_symbol_t symbol(hsa_executable_t exec, const char* name) {
    hsa_executable_symbol_t s{0};
    EXPECT_EQ(hsa_executable_get_symbol_by_name(exec, name, &gpu_, &s), HSA_STATUS_SUCCESS) << name;
    return s;
  }

  template <typename T>
  T symbolInfo(hsa_executable_symbol_t s, hsa_executable_symbol_info_t attribute) {
    T value{};
    EXPECT_EQ(hsa_executable_symbol_get_info(s, attribute, &value), HSA_STATUS_SUCCESS);
    return value;
  }
};

TEST_F(Executables, HipccCodeObjectSymbolsMatchReadelf) {
  hsa_executable_t exec;
  ASSERT_EQ(load("globals.co", &exec), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_freeze(exec, nullptr), HSA_STATUS_SUCCESS);
  const auto loaded = port_->loadedCodeObjects();
  ASSERT_EQ(loaded.size(), 1u);
  const uint64_t base = loaded.begin()->first;
  EXPECT_TRUE(port_->isDeviceAllocation(base));
  const auto elf = readelfSymbols(kDir + "/globals.syms");
  ASSERT_EQ(elf.count("scale.kd"), 1u);

  hsa_executable_symbol_t kernel = symbol(exec, "scale.kd");
  EXPECT_EQ(symbolInfo<hsa_symbol_kind_t>(kernel, HSA_EXECUTABLE_SYMBOL_INFO_TYPE),
            HSA_SYMBOL_KIND_KERNEL);
  const uint64_t kd = symbolInfo<uint64_t>(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT);
  EXPECT_EQ(kd, base + elf.at("scale.kd").value);
  EXPECT_EQ(port_->kernelNames().at(kd), "scale");
  EXPECT_GE(symbolInfo<uint32_t>(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE),
            12u);  // float* and int, before hidden arguments
  EXPECT_EQ(symbolInfo<uint32_t>(kernel, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH), 8u);

  for (const char* name : {"counter", "table", "factor"}) {
    SCOPED_TRACE(name);
    hsa_executable_symbol_t v = symbol(exec, name);
    EXPECT_EQ(symbolInfo<hsa_symbol_kind_t>(v, HSA_EXECUTABLE_SYMBOL_INFO_TYPE),
              HSA_SYMBOL_KIND_VARIABLE);
    EXPECT_EQ(symbolInfo<uint64_t>(v, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS),
              base + elf.at(name).value);
    EXPECT_EQ(symbolInfo<uint32_t>(v, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE), elf.at(name).size);
  }
  // The image is in device memory: __constant__ factor holds its initial values there.
  float factor[4] = {};
  port_->readDevice(base + elf.at("factor").value, factor, sizeof factor);
  EXPECT_EQ(factor[0], 1.0f);
  EXPECT_EQ(factor[3], 4.0f);
  hsa_executable_symbol_t missing;
  EXPECT_EQ(hsa_executable_get_symbol_by_name(exec, "scale", &gpu_, &missing),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME)
      << "kernels are found by their descriptor symbol, NAME.kd";

  int kernels = 0, variables = 0;
  std::pair<int*, int*> counts{&kernels, &variables};
  ASSERT_EQ(hsa_executable_iterate_agent_symbols(
                exec, gpu_,
                [](hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t s, void* data) {
                  auto* c = static_cast<std::pair<int*, int*>*>(data);
                  hsa_symbol_kind_t kind;
                  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind);
                  ++*(kind == HSA_SYMBOL_KIND_KERNEL ? c->first : c->second);
                  return HSA_STATUS_SUCCESS;
                },
                &counts),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(kernels, 1);
  EXPECT_EQ(variables, 6);  // counter, table, factor and HIP's three weak coordinate objects

  ASSERT_EQ(hsa_executable_destroy(exec), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(port_->loadedCodeObjects().empty());
  EXPECT_EQ(port_->deviceBytesInUse(), 0u);
}

TEST_F(Executables, LoaderExtensionFindsTheLoadedCodeObject) {
  hsa_executable_t exec;
  ASSERT_EQ(load("globals.co", &exec), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_freeze(exec, nullptr), HSA_STATUS_SUCCESS);
  const uint64_t base = port_->loadedCodeObjects().begin()->first;
  const auto elf = readelfSymbols(kDir + "/globals.syms");
  hsa_ven_amd_loader_1_03_pfn_t table{};
  ASSERT_EQ(hsa_system_get_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 3, &table),
            HSA_STATUS_SUCCESS);
  const void* factor = reinterpret_cast<const void*>(base + elf.at("factor").value);
  hsa_executable_t found{0};
  ASSERT_EQ(table.hsa_ven_amd_loader_query_executable(factor, &found), HSA_STATUS_SUCCESS);
  EXPECT_EQ(found.handle, exec.handle);
  const void* host = nullptr;
  ASSERT_EQ(table.hsa_ven_amd_loader_query_host_address(factor, &host), HSA_STATUS_SUCCESS);
  EXPECT_EQ(static_cast<const float*>(host)[1], 2.0f);
  size_t count = 0;
  ASSERT_EQ(table.hsa_ven_amd_loader_query_segment_descriptors(nullptr, &count),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(count, 1u);
  hsa_ven_amd_loader_segment_descriptor_t d{};
  ASSERT_EQ(table.hsa_ven_amd_loader_query_segment_descriptors(&d, &count), HSA_STATUS_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uint64_t>(d.segment_base), base);
  EXPECT_EQ(d.executable.handle, exec.handle);
  std::vector<hsa_loaded_code_object_t> objects;
  ASSERT_EQ(table.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
                exec,
                [](hsa_executable_t, hsa_loaded_code_object_t o, void* data) {
                  static_cast<std::vector<hsa_loaded_code_object_t>*>(data)->push_back(o);
                  return HSA_STATUS_SUCCESS;
                },
                &objects),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(objects.size(), 1u);
  uint64_t loadBase = 0;
  ASSERT_EQ(table.hsa_ven_amd_loader_loaded_code_object_get_info(
                objects[0], HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &loadBase),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(loadBase, base);
  hsa_executable_destroy(exec);
}

TEST_F(Executables, ReaderFromFile) {
  const int fd = open((kDir + "/globals.co").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_file(fd, &reader), HSA_STATUS_SUCCESS);
  close(fd);
  hsa_executable_t exec;
  ASSERT_EQ(hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_UNFROZEN, nullptr, &exec),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_executable_load_agent_code_object(exec, gpu_, reader, nullptr, nullptr),
            HSA_STATUS_SUCCESS);
  hsa_code_object_reader_destroy(reader);
  hsa_executable_destroy(exec);
}

// HSA 1.0's code objects (LLVM 15's OpenMP offload plugin loads its images this way): a
// deserialized copy of the ELF, loaded into an executable whose symbols then resolve as a
// reader's do; the copy outlives the caller's bytes, and a destroyed one is no code object.
TEST_F(Executables, DeserializedCodeObjectLoadsLikeAReader) {
  std::vector<uint8_t> bytes = readFile(kDir + "/globals.co");
  hsa_code_object_t object{0};
  EXPECT_EQ(hsa_code_object_deserialize(nullptr, bytes.size(), nullptr, &object),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_code_object_deserialize(bytes.data(), bytes.size(), nullptr, &object),
            HSA_STATUS_SUCCESS);
  std::fill(bytes.begin(), bytes.end(), 0);  // the runtime holds its own copy
  hsa_executable_t exec, byReader;
  ASSERT_EQ(hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_UNFROZEN, nullptr, &exec),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_load_code_object(exec, gpu_, object, nullptr), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_freeze(exec, nullptr), HSA_STATUS_SUCCESS);
  ASSERT_EQ(load("globals.co", &byReader), HSA_STATUS_SUCCESS);
  const hsa_executable_symbol_t kernel = symbol(exec, "scale.kd");
  const hsa_executable_symbol_t same = symbol(byReader, "scale.kd");
  EXPECT_EQ(symbolInfo<uint32_t>(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE),
            symbolInfo<uint32_t>(same, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE));
  EXPECT_NE(symbolInfo<uint64_t>(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT), 0u);
  EXPECT_EQ(hsa_code_object_destroy(object), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_code_object_destroy(object), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  hsa_executable_t late;
  ASSERT_EQ(hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_UNFROZEN, nullptr, &late),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_executable_load_code_object(late, gpu_, object, nullptr),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  hsa_executable_destroy(late);
  hsa_executable_destroy(exec);
  hsa_executable_destroy(byReader);
}

TEST_F(Executables, Gfx906AgentAcceptsItsFeatureVariantsAndGfx900CodeRefusesOthers) {
  hsa_executable_t exec;
  for (const char* file : {"globals_gfx900.co", "globals_xnack_off.co", "globals_mi50.co"}) {
    EXPECT_EQ(load(file, &exec), HSA_STATUS_SUCCESS) << file;
    hsa_executable_destroy(exec);
  }
  testing::internal::CaptureStderr();
  EXPECT_EQ(load("globals_gfx90a.co", &exec), HSA_STATUS_ERROR_INVALID_ISA);
  hsa_executable_destroy(exec);
  EXPECT_EQ(load("globals_xnack_on.co", &exec), HSA_STATUS_ERROR_INVALID_ISA);
  hsa_executable_destroy(exec);
  EXPECT_EQ(load("globals_sramecc_off.co", &exec), HSA_STATUS_ERROR_INVALID_ISA);
  hsa_executable_destroy(exec);
  testing::internal::GetCapturedStderr();
  EXPECT_TRUE(port_->loadedCodeObjects().empty());
  EXPECT_EQ(port_->deviceBytesInUse(), 0u);
}

TEST_F(Executables, FrozenExecutableTakesNoMoreCode) {
  hsa_executable_t exec;
  ASSERT_EQ(load("globals.co", &exec), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_executable_freeze(exec, nullptr), HSA_STATUS_SUCCESS);
  const std::vector<uint8_t> bytes = readFile(kDir + "/globals.co");
  hsa_code_object_reader_t reader;
  ASSERT_EQ(hsa_code_object_reader_create_from_memory(bytes.data(), bytes.size(), &reader),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_executable_load_agent_code_object(exec, gpu_, reader, nullptr, nullptr),
            HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  hsa_code_object_reader_destroy(reader);
  hsa_executable_destroy(exec);
}

class Vega10Executables : public Executables {
 protected:
  std::string platformName() const override { return "vega10"; }
};

TEST_F(Vega10Executables, Gfx900AgentRefusesGfx906Code) {
  hsa_executable_t exec;
  EXPECT_EQ(load("globals_gfx900.co", &exec), HSA_STATUS_SUCCESS);
  hsa_executable_destroy(exec);
  testing::internal::CaptureStderr();
  EXPECT_EQ(load("globals.co", &exec), HSA_STATUS_ERROR_INVALID_ISA);
  testing::internal::GetCapturedStderr();
  hsa_executable_destroy(exec);
}

}  // namespace
}  // namespace vgpu::hsa::test
