public import Foundation
import WorkoutProtocol

/// One change of a member's data, as `Queries.Changes` and `Streams.Watch` report it: the
/// item in its current state (or a tombstone), at the revision of its latest change.
///
/// A client keeping a local copy applies changes in order and remembers the last
/// ``revision`` it applied, to ask for the changes after it next time.
public struct Change: Sendable, Hashable, Codable {
    /// The member revision of this change; strictly increasing within a feed.
    public var revision: UInt64
    /// When the change was committed.
    public var changedAt: Date
    /// What changed, in its state after the change; `nil` for a kind of change this
    /// library does not know (from a newer server), which a client skips.
    public var item: Item?

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - revision: The member revision of the change.
    ///   - changedAt: When it was committed.
    ///   - item: What changed.
    public init(revision: UInt64, changedAt: Date, item: Item?) {
        self.revision = revision
        self.changedAt = changedAt
        self.item = item
    }

    /// What a change is about.
    ///
    /// Codable as an object with one key naming the case, e.g. `{"workout": {...}}` or
    /// `{"deleted": {"kind": "meal", "id": "…"}}`.
    public enum Item: Sendable, Hashable, Codable {
        /// A workout created or updated.
        case workout(Workout)
        /// A meal created or updated (with all its items).
        case meal(Meal)
        /// A weight entry created.
        case weight(WeightEntry)
        /// A day's steps changed (the whole day, every source).
        case steps(StepsDay)
        /// An achievement unlocked, or locked again (`unlocked == false`) if the server's
        /// rules relock it after a deletion.
        case achievement(Achievement)
        /// The profile changed.
        case profile(Profile)
        /// A workout, meal or weight entry was deleted: its kind and id.
        case deleted(RecordKind, UUID)

        private enum CodingKeys: String, CodingKey {
            case workout, meal, weight, steps, achievement, profile, deleted
        }

        private enum DeletedKeys: String, CodingKey {
            case kind, id
        }

        /// Decodes an item from an object with one key naming its case.
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` unless there is exactly one known key with a valid value.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: container.codingPath,
                    debugDescription: "expected exactly one of workout, meal, weight, steps, achievement, profile, deleted"
                ))
            }
            switch key {
            case .workout: self = .workout(try container.decode(Workout.self, forKey: key))
            case .meal: self = .meal(try container.decode(Meal.self, forKey: key))
            case .weight: self = .weight(try container.decode(WeightEntry.self, forKey: key))
            case .steps: self = .steps(try container.decode(StepsDay.self, forKey: key))
            case .achievement: self = .achievement(try container.decode(Achievement.self, forKey: key))
            case .profile: self = .profile(try container.decode(Profile.self, forKey: key))
            case .deleted:
                let deleted = try container.nestedContainer(keyedBy: DeletedKeys.self, forKey: key)
                self = .deleted(
                    try deleted.decode(RecordKind.self, forKey: .kind), try deleted.decode(UUID.self, forKey: .id)
                )
            }
        }

        /// Encodes this item as an object with one key naming its case.
        ///
        /// - Parameter encoder: The encoder.
        /// - Throws: What the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .workout(let workout): try container.encode(workout, forKey: .workout)
            case .meal(let meal): try container.encode(meal, forKey: .meal)
            case .weight(let entry): try container.encode(entry, forKey: .weight)
            case .steps(let day): try container.encode(day, forKey: .steps)
            case .achievement(let achievement): try container.encode(achievement, forKey: .achievement)
            case .profile(let profile): try container.encode(profile, forKey: .profile)
            case .deleted(let kind, let id):
                var deleted = container.nestedContainer(keyedBy: DeletedKeys.self, forKey: .deleted)
                try deleted.encode(kind, forKey: .kind)
                try deleted.encode(id, forKey: .id)
            }
        }
    }
}

// MARK: Wire

extension Change {
    /// Creates a change from the wire. An unset item (a oneof case this library does not
    /// know) and a tombstone of an unknown record kind give a `nil` item.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_Change) {
        self.init(
            revision: wire.revision, changedAt: Date(wireMilliseconds: wire.changedAtMs),
            item: wire.item.flatMap(Item.init(wire:))
        )
    }
}

extension Change.Item {
    /// Creates an item from the wire's oneof; `nil` for a tombstone of an unknown kind.
    ///
    /// - Parameter wire: The oneof's value.
    init?(wire: Workout_V1_Change.OneOf_Item) {
        switch wire {
        case .workout(let workout): self = .workout(Workout(wire: workout))
        case .meal(let meal): self = .meal(Meal(wire: meal))
        case .weight(let entry): self = .weight(WeightEntry(wire: entry))
        case .steps(let day): self = .steps(StepsDay(wire: day))
        case .achievement(let achievement): self = .achievement(Achievement(wire: achievement))
        case .profile(let profile): self = .profile(Profile(wire: profile))
        case .deleted(let tombstone):
            guard let kind = RecordKind(wire: tombstone.kind) else { return nil }
            self = .deleted(kind, UUID(wireBytes: tombstone.id))
        }
    }
}
