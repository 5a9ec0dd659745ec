# Writes the bytes of the file IN into OUT as a C++ array NAME and its length NAME##Size
# (`extern const unsigned char NAME[]; extern const unsigned long NAME##Size;` where read).
# Run by the build: cmake -DIN=... -DOUT=... -DNAME=... -P embed-file.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" len)
math(EXPR size "${len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
  "// Generated from ${IN} by scripts/embed-file.cmake; do not edit.\n"
  "extern const unsigned char ${NAME}[];\n"
  "extern const unsigned long ${NAME}Size;\n"
  "alignas(64) const unsigned char ${NAME}[] = {\n${bytes}0};\n"
  "const unsigned long ${NAME}Size = ${size};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
