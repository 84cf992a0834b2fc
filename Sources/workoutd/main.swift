// Placeholder until the server issue lands: say so instead of pretending to serve.
print("workoutd: the server is not there yet (see README.md); the storage layer and its tests are.")
