import CMemory
import Testing

/// The C allocator's settings reach glibc (they once compiled to stubs that did nothing).
@Suite struct AllocatorSettingsTests {
    @Test("On glibc, an allocator setting is accepted (not the stub's refusal)")
    func settingsReachGlibc() {
        #if os(Linux)
        // An arena cap of 0 changes nothing in glibc (only a value above 0 is applied) and is
        // still accepted (mallopt returns 1), where the stub returns 0. The tests' process
        // keeps its allocator as it is: with a 1 MiB mmap threshold set here, the TLS trust
        // tests (a scrypt of 32 MiB per sign-in) missed their call deadlines in a full run.
        #expect(workout_memory_set_arena_limit(0) == 1)
        #endif
    }
}
