// libFuzzer target: see federation_entry in fuzz_entries.h for what is checked.
#include <cstdio>
#include <cstdlib>

#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string failure = toguz::fuzz::federation_entry(data, size);
  if (!failure.empty()) {
    std::fprintf(stderr, "federation_fuzz: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
