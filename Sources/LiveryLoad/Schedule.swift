import Foundation

/// Whether a program, library item or tour ships (docs/schedules.md): a draft is validated like
/// published content but never packed into a release.
public enum PublicationStatus: String, Sendable, CaseIterable {
    case draft, published
}

/// When content is shown: from `availableFrom` (inclusive) until `availableUntil` (exclusive), either
/// open. Releases carry the window in the download manifest and apps hide content outside it, so a
/// release built today can reveal next month's program offline, on time.
public struct Availability: Sendable, Equatable {
    public var from: Date?
    public var until: Date?

    public static let always = Availability(from: nil, until: nil)

    public init(from: Date?, until: Date?) {
        self.from = from
        self.until = until
    }

    public enum State: String, Sendable {
        /// Not yet shown: `from` lies ahead.
        case upcoming
        case live
        /// No longer shown: `until` has passed.
        case ended
    }

    public func state(at date: Date) -> State {
        if let from, date < from { return .upcoming }
        if let until, date >= until { return .ended }
        return .live
    }

    public func contains(_ date: Date) -> Bool { state(at: date) == .live }

    public var isAlways: Bool { from == nil && until == nil }

    /// Whether this window is open at every moment `other` is (an open end covers everything).
    public func covers(_ other: Availability) -> Bool {
        let startsInTime = from.map { mine in other.from.map { mine <= $0 } ?? false } ?? true
        let endsInTime = until.map { mine in other.until.map { mine >= $0 } ?? false } ?? true
        return startsInTime && endsInTime
    }

    /// The smallest window covering all of `windows` (a bundle holding several items is shown while any is).
    public static func union(_ windows: [Availability]) -> Availability {
        guard !windows.isEmpty else { return .always }
        let froms = windows.map(\.from), untils = windows.map(\.until)
        return Availability(from: froms.contains(where: { $0 == nil }) ? nil : froms.compactMap { $0 }.min(),
                            until: untils.contains(where: { $0 == nil }) ? nil : untils.compactMap { $0 }.max())
    }
}

/// RFC 3339 date-times with an explicit offset, as schedules are written: `2027-01-04T06:00:00+01:00`,
/// `2027-01-04T05:00:00Z`, optionally with a fraction of a second.
///
/// Read by hand rather than with Foundation's `ISO8601DateFormatter`: that formatter accepts a day that
/// does not exist (`2027-02-30` becomes 2 March) and an offset without its colon (`+0100`), and a
/// creator's typo in a launch date should be an error, not a silently different date. The calendar
/// arithmetic is Foundation's (`Calendar` in the Gregorian calendar at the written offset).
public enum ScheduleDate {
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        // YYYY-MM-DDThh:mm:ss, then an optional fraction, then Z or ±hh:mm.
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        let offset: Int
        if index == bytes.count - 1, bytes[index] == 0x5A {
            offset = 0
        } else if index == bytes.count - 6, bytes[index] == 0x2B || bytes[index] == 0x2D, bytes[index + 3] == 0x3A,
                  let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6), hours < 24, minutes < 60 {
            offset = (bytes[index] == 0x2D ? -1 : 1) * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        guard let zone = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = zone
        guard let wall = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)) else { return nil }
        return wall.addingTimeInterval(fraction - TimeInterval(offset))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension Node {
    /// `status` of a program, library item or tour; published when absent (or not yet valid: the shape rules say so).
    public var publicationStatus: PublicationStatus {
        self["status"]?.string.flatMap(PublicationStatus.init(rawValue:)) ?? .published
    }

    /// `availableFrom` / `availableUntil`; an end that does not parse is open here (the format rule reports it).
    public var availability: Availability {
        Availability(from: self["availableFrom"]?.string.flatMap(ScheduleDate.parse), until: self["availableUntil"]?.string.flatMap(ScheduleDate.parse))
    }
}
