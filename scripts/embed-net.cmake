# Writes the bytes of the network file IN as a C++ array (kToguzEmbeddedNet, read by
# src/search/nnue.cpp) into OUT. Run by the build: cmake -DIN=... -DOUT=... -P embed-net.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" len)
math(EXPR size "${len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
  "// Generated from ${IN} by scripts/embed-net.cmake; do not edit.\n"
  "extern const unsigned char kToguzEmbeddedNet[];\n"
  "extern const unsigned long kToguzEmbeddedNetSize;\n"
  "alignas(64) const unsigned char kToguzEmbeddedNet[] = {\n${bytes}0};\n"
  "const unsigned long kToguzEmbeddedNetSize = ${size};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
