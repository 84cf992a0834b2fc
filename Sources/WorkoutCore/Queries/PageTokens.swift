import Crypto
import Foundation
package import WorkoutRules

/// Page tokens that are tamper-evident and bound to the query they were issued for.
///
/// A token is the resume key of the scan (the index key of the last record on the page),
/// sealed with an HMAC-SHA256 under a secret of this store (kept in its meta table, so
/// tokens survive a restart, and made anew for each store):
///
/// ```
/// +--------+---------------------------+--------------------------------+
/// |  0x01  |  resume key (n bytes)     |  HMAC-SHA256 (32 bytes)        |
/// +--------+---------------------------+--------------------------------+
///  version
///
/// HMAC input: "workout page token" ‖ 0x01 ‖ query kind (u8) ‖ member id (16 bytes)
///             ‖ parameters (each u64 big-endian) ‖ resume key
/// ```
///
/// The MAC covers the member, the query kind and its parameters (`from_ms`, `to_ms`, or a day's
/// bounds; not the page size, which may change from page to page), so a token forged, altered, or reused by
/// another member, another method or other parameters fails to open and the query answers
/// INVALID_ARGUMENT `page_token`. The resume key itself is not secret: it names the member's
/// own record. The scan's key range still bounds it to the caller's keys.
package struct PageTokens: Sendable {
    /// The queries that page.
    package enum Query: UInt8, Sendable {
        /// `Queries.WorkoutHistory`.
        case workoutHistory = 1
        /// `Queries.WeightProgress`.
        case weightProgress = 2
        /// `Queries.MealsOfDay` (parameters: the day's first and last-plus-one millisecond).
        case mealsOfDay = 3
    }

    /// The meta-table key of the store's page-token secret.
    package static let secretKey = "page_token_secret"
    /// The secret's size: 256 bits.
    package static let secretSize = 32

    private static let version: UInt8 = 1
    private static let domain = Array("workout page token".utf8)
    private static let macSize = 32

    private let key: SymmetricKey

    /// Tokens sealed with `secret`.
    ///
    /// - Parameter secret: The store's secret (``secretSize`` random bytes).
    package init(secret: [UInt8]) {
        key = SymmetricKey(data: secret)
    }

    /// Seals a resume key into a token for one query of one member.
    ///
    /// - Parameters:
    ///   - resumeKey: The scan's resume key.
    ///   - query: The query kind.
    ///   - member: The member whose query it is.
    ///   - parameters: The query's parameters besides the page size, in a fixed order.
    /// - Returns: The token, `1 + resumeKey.count + 32` bytes.
    func seal(_ resumeKey: [UInt8], query: Query, member: UUID, parameters: [Int64]) -> Data {
        var token = Data([Self.version])
        token.append(contentsOf: resumeKey)
        token.append(contentsOf: mac(resumeKey, query: query, member: member, parameters: parameters))
        return token
    }

    /// Opens a token from a request.
    ///
    /// - Parameters:
    ///   - token: The request's `page_token` (empty for the first page).
    ///   - query: The query kind.
    ///   - member: The caller.
    ///   - parameters: The request's parameters, as for ``seal(_:query:member:parameters:)``.
    /// - Returns: The resume key, or `nil` for an empty token (the first page).
    /// - Throws: ``DomainError`` `invalidArgument` on `page_token` when the token was not
    ///   sealed by this store for this member, query and parameters.
    func open(_ token: Data, query: Query, member: UUID, parameters: [Int64]) throws(DomainError) -> [UInt8]? {
        if token.isEmpty { return nil }
        let bytes = Array(token)
        guard bytes.count > 1 + Self.macSize, bytes[0] == Self.version else { throw Self.rejection }
        let resumeKey = Array(bytes[1..<(bytes.count - Self.macSize)])
        let presented = Array(bytes.suffix(Self.macSize))
        guard HMAC<SHA256>.isValidAuthenticationCode(
            presented, authenticating: input(resumeKey, query: query, member: member, parameters: parameters), using: key)
        else { throw Self.rejection }
        return resumeKey
    }

    /// The answer to a token that does not open.
    package static let rejection = DomainError.invalid(
        "page_token",
        "page_token was not issued for this query (the same member, method and range: from_ms and to_ms, or the day and zone); "
            + "start again without a page_token")

    private func mac(_ resumeKey: [UInt8], query: Query, member: UUID, parameters: [Int64]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: input(resumeKey, query: query, member: member, parameters: parameters), using: key))
    }

    private func input(_ resumeKey: [UInt8], query: Query, member: UUID, parameters: [Int64]) -> [UInt8] {
        var input = Self.domain
        input.append(Self.version)
        input.append(query.rawValue)
        input.append(contentsOf: member.bytes)
        for parameter in parameters {
            withUnsafeBytes(of: UInt64(bitPattern: parameter).bigEndian) { input.append(contentsOf: $0) }
        }
        input.append(contentsOf: resumeKey)
        return input
    }
}
