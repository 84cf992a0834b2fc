#ifndef WORKOUT_CMEMORY_H
#define WORKOUT_CMEMORY_H

/// Makes the C allocator serve blocks of at least `bytes` from their own mappings, returned
/// to the system when freed (glibc's M_MMAP_THRESHOLD, which otherwise adapts upward after
/// large frees and then keeps large blocks in the heap). Returns 1 on success, 0 where the
/// allocator has no such setting.
int workout_memory_set_mmap_threshold(int bytes);

/// Caps the number of malloc arenas the C allocator keeps (glibc's M_ARENA_MAX, otherwise
/// eight per core, one taken by each thread that allocates while the others are busy).
/// Returns 1 on success, 0 where the allocator has no such setting.
int workout_memory_set_arena_limit(int arenas);

#endif
