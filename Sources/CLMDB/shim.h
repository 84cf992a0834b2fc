#ifndef WORKOUT_CLMDB_SHIM_H
#define WORKOUT_CLMDB_SHIM_H
// liblmdb (Debian: liblmdb-dev). Swift imports everything it needs from lmdb.h directly.
#include <lmdb.h>
#endif
