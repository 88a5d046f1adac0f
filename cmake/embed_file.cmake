# cmake -DIN=file -DOUT=file.cpp -DID=identifier -P embed_file.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}" "// Generated from ${IN} by cmake/embed_file.cmake: do not edit.\n"
  "extern const unsigned char kAsset_${ID}[];\nextern const unsigned long kAsset_${ID}_size;\n"
  "const unsigned char kAsset_${ID}[] = {\n${bytes}0x00};\n"
  "const unsigned long kAsset_${ID}_size = ${size};\n")
