// An app that only calls the server depends on the product WorkoutClient alone: this executable
// shows that it builds and links without the outbox, the session model or the importers.
import WorkoutClient

let address = ServerAddress(host: "127.0.0.1", port: 7420)
let client = WorkoutClient(configuration: .init(address: address, deviceName: "Client only"))
print("WorkoutClient links alone: a client for \(address), \(client.connectionsOpened) connections opened")
client.close()
