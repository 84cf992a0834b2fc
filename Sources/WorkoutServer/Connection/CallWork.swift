/// The work behind one call on a connection, as the driver keeps it.
enum CallWork {
    /// A write or slow call running in a task.
    case task(Task<Void, Never>)
    /// A `Streams.Watch` feeding the member's changes.
    case watch(WatchState)
    /// A `Streams.Export` producing chunks.
    case export(ExportProducer)

    /// Stops the work: cancels the task or ends the stream's producer.
    func stop(on connection: Connection) {
        switch self {
        case .task(let task): task.cancel()
        case .watch(let watch): connection.endSubscription(of: watch)
        case .export(let producer): producer.finish()
        }
    }

    /// Lets a stream send again, now that the output has room.
    func produce(_ callID: UInt32, on connection: Connection) {
        switch self {
        case .task: break
        case .watch: connection.pump(callID)
        case .export: connection.produceExport(callID)
        }
    }
}
