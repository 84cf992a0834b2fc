#ifndef WORKOUT_CZLIB_SHIM_H
#define WORKOUT_CZLIB_SHIM_H
// zlib (Debian: zlib1g-dev). deflateInit2 and inflateInit2 are macros that pass
// ZLIB_VERSION and sizeof(z_stream), so Swift cannot call them: these wrappers can.
#include <zlib.h>

static inline int czlib_deflateInit2(z_streamp strm, int level, int method,
                                     int windowBits, int memLevel, int strategy) {
    return deflateInit2(strm, level, method, windowBits, memLevel, strategy);
}

static inline int czlib_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
