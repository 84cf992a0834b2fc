import WorkoutProtocol

/// The methods a server implements (`Meta.DescribeCatalog`, no session needed), so a
/// client can check that an older server has a method before calling it.
public struct ServerCatalog: Sendable, Hashable, Codable {
    /// The methods, in ascending order of number.
    public var methods: [CatalogMethod]
    /// The protocol version of the connection.
    public var protocolVersion: Int

    /// Creates a catalog.
    ///
    /// - Parameters:
    ///   - methods: The methods.
    ///   - protocolVersion: The connection's protocol version.
    public init(methods: [CatalogMethod], protocolVersion: Int = 1) {
        self.methods = methods
        self.protocolVersion = protocolVersion
    }

    /// The method with a catalog name, if the server has it.
    ///
    /// - Parameter name: A catalog name, e.g. `"Streams.Export"`.
    /// - Returns: The method, or `nil` if the server lacks it.
    public func method(named name: String) -> CatalogMethod? {
        methods.first { $0.name == name }
    }
}

// MARK: Wire

extension ServerCatalog {
    /// Creates a catalog from the wire (`DescribeCatalogResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_DescribeCatalogResponse) {
        self.init(methods: wire.methods.map(CatalogMethod.init(wire:)), protocolVersion: Int(wire.protocolVersion))
    }
}
