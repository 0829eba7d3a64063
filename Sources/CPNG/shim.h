#include <png.h>
// zlib, which libpng is built on, for the CRC-32 of chunks added to libpng's output.
#include <zlib.h>
