import Testing

/// Every suite of this package, one test at a time: each test starts `workoutd` processes, and
/// some measure how soon an answer comes, which other tests' load on a small machine would
/// disturb. The suites are declared in extensions, one file each.
@Suite(.serialized) struct HouseholdAppTests {}
