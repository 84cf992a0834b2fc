package import LMDB

/// Which way a scan walks its range.
package enum ScanDirection: Sendable, Hashable {
    /// Ascending key order.
    case forward
    /// Descending key order.
    case backward
}

/// What to scan: a range, a direction, how many entries at most, and where to resume.
package struct ScanRequest: Sendable, Hashable {
    /// The keys to visit.
    package var range: KeyRange
    /// Ascending or descending.
    package var direction: ScanDirection
    /// The most entries to return, or `nil` for all.
    package var limit: Int?
    /// Continue after this key (exclusive): the ``ScanPage/resumeAfter`` of the previous page.
    package var after: [UInt8]?

    /// Describes a scan.
    package init(range: KeyRange = .all, direction: ScanDirection = .forward, limit: Int? = nil, after: [UInt8]? = nil) {
        self.range = range
        self.direction = direction
        self.limit = limit
        self.after = after
    }
}

/// What a scan's visitor does with the entry it was handed.
package enum ScanStep: Sendable, Hashable {
    /// The entry is on the page; go on to the next.
    case take
    /// The page is full: it ends before this entry, which the next page starts with.
    case stop
}

/// One page of a scan.
package struct ScanPage<Element> {
    /// The entries, in scan order.
    package var elements: [Element]
    /// The key to pass as ``ScanRequest/after`` for the next page, or `nil` when the range
    /// holds nothing more.
    package var resumeAfter: [UInt8]?
}

extension ScanPage: Sendable where Element: Sendable {}

extension TransactionReading where Self: ~Copyable {
    /// Visits the entries of `database` that `request` selects, in order, handing each to
    /// `visit` without copying. Cost: one seek plus one step per entry visited.
    ///
    /// - Parameters:
    ///   - database: the table.
    ///   - request: range, direction, limit and resume key.
    ///   - visit: called with each entry's key and value (valid only during the call).
    /// - Returns: the resume key when `limit` entries were visited and more remain, else `nil`.
    package func scanRaw(
        _ database: Database, _ request: ScanRequest,
        _ visit: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Void
    ) throws -> [UInt8]? {
        try scanRawPage(database, request) { key, value in
            try visit(key, value)
            return .take
        }
    }

    /// Visits the entries of `database` that `request` selects, in order, until `visit`
    /// declines one: a page that ends where the visitor says it is full (a byte budget),
    /// or at `request.limit`, whichever comes first.
    ///
    /// - Parameters:
    ///   - database: the table.
    ///   - request: range, direction, limit and resume key.
    ///   - visit: called with each entry's key and value (valid only during the call); returns
    ///     ``ScanStep/take`` to count the entry in and go on, ``ScanStep/stop`` to end the page
    ///     before it. It must take the first entry it is handed, so a page always moves on.
    /// - Returns: the key to resume after (the last entry taken) when `limit` or `visit` ended
    ///   the scan and the range holds more, else `nil`.
    package func scanRawPage(
        _ database: Database, _ request: ScanRequest,
        _ visit: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> ScanStep
    ) throws -> [UInt8]? {
        let range = request.range
        if let limit = request.limit, limit <= 0 { return nil }
        return try withCursor(on: database) { cursor in
            var entry: Cursor.Entry?
            switch request.direction {
            case .forward:
                entry = try positionForward(&cursor, range: range, after: request.after)
            case .backward:
                entry = try positionBackward(&cursor, range: range, after: request.after)
            }
            var visited = 0
            var lastKey: [UInt8]?
            while let current = entry {
                let inRange = request.direction == .forward
                    ? range.isBelowUpper(current.key) : range.isAboveLower(current.key)
                guard inRange else { return nil }
                if let limit = request.limit, visited == limit { return lastKey }
                if try visit(current.key, current.value) == .stop {
                    precondition(visited > 0, "a scan's visitor must take the first entry of a page")
                    // The entry before this one (in scan order) is the last one taken.
                    let taken = request.direction == .forward ? try cursor.previous() : try cursor.next()
                    return taken.map { Array($0.key) }
                }
                visited += 1
                if request.limit != nil { lastKey = Array(current.key) }
                entry = request.direction == .forward ? try cursor.next() : try cursor.previous()
            }
            return nil
        }
    }

    /// Puts the cursor on the first entry at or after the range's lower end (and after `after`).
    private func positionForward(_ cursor: inout Cursor, range: KeyRange, after: [UInt8]?) throws -> Cursor.Entry? {
        var entry: Cursor.Entry?
        var exclusive: [UInt8]?
        switch range.lower {
        case .unbounded: entry = try cursor.first()
        case .inclusive(let bound): entry = try cursor.seek(atLeast: bound)
        case .exclusive(let bound):
            entry = try cursor.seek(atLeast: bound)
            exclusive = bound
        }
        if let after, isAfterLower(after, range) {
            entry = try cursor.seek(atLeast: after)
            exclusive = after
        }
        if let exclusive, let current = entry, current.key.elementsEqual(exclusive) {
            entry = try cursor.next()
        }
        return entry
    }

    private func isAfterLower(_ key: [UInt8], _ range: KeyRange) -> Bool {
        key.withUnsafeBytes { range.isAboveLower($0) }
    }

    /// Puts the cursor on the last entry at or before the range's upper end (and before `after`).
    private func positionBackward(_ cursor: inout Cursor, range: KeyRange, after: [UInt8]?) throws -> Cursor.Entry? {
        var start = range.upper
        if let after, after.withUnsafeBytes({ range.isBelowUpper($0) }) {
            start = .exclusive(after)
        }
        switch start {
        case .unbounded:
            return try cursor.last()
        case .inclusive(let bound), .exclusive(let bound):
            let inclusive = if case .inclusive = start { true } else { false }
            guard let entry = try cursor.seek(atLeast: bound) else {
                return try cursor.last()
            }
            if inclusive && entry.key.elementsEqual(bound) { return entry }
            return try cursor.previous()
        }
    }

    /// One page of `table`'s entries, decoded.
    package func scan<K, V>(_ table: Table<K, V>, _ request: ScanRequest) throws -> ScanPage<(key: K, value: V)> {
        var elements: [(key: K, value: V)] = []
        if let limit = request.limit { elements.reserveCapacity(min(limit, 1024)) }
        let resume = try scanRaw(table.database, request) { key, value in
            elements.append((try table.decodeKey(key), try table.decodeValue(value, key: key)))
        }
        return ScanPage(elements: elements, resumeAfter: resume)
    }

    /// One page of `table`'s keys that `request` selects, decoded; no value is read into a
    /// record (for a caller that needs to know which records exist).
    package func scanKeys<K, V>(_ table: Table<K, V>, _ request: ScanRequest) throws -> ScanPage<K> {
        var keys: [K] = []
        if let limit = request.limit { keys.reserveCapacity(min(limit, 1024)) }
        let resume = try scanRaw(table.database, request) { key, _ in keys.append(try table.decodeKey(key)) }
        return ScanPage(elements: keys, resumeAfter: resume)
    }

    /// Visits `table`'s entries that `request` selects, decoded, in order, until `visit`
    /// declines one (see ``scanRawPage(_:_:_:)``): a page that ends where the reply is full.
    ///
    /// - Returns: the key to resume after (the last entry taken) when `request.limit` or
    ///   `visit` ended the scan and the range holds more, else `nil`.
    package func scanPage<K, V>(
        _ table: Table<K, V>, _ request: ScanRequest, _ visit: (_ key: K, _ value: V) throws -> ScanStep
    ) throws -> [UInt8]? {
        try scanRawPage(table.database, request) { key, value in
            try visit(try table.decodeKey(key), try table.decodeValue(value, key: key))
        }
    }
}
