import Foundation

/// A voucher's `--expires` day: `YYYY-MM-DD` (UTC) taken as the last day a code works, so it expires at the next
/// midnight; and the days `livery vouchers` shows back.
public enum VoucherExpiry {
    /// The first moment a code given `text` as its last day no longer works; nil unless `text` is a real date
    /// written `YYYY-MM-DD`.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              calendar.dateComponents([.year, .month, .day], from: start) == DateComponents(year: year, month: month, day: day) else { return nil }
        return calendar.date(byAdding: .day, value: 1, to: start)
    }

    /// The last day a voucher works, as `--expires` took it.
    public static func lastDay(_ expires: Date) -> String {
        day(expires.addingTimeInterval(-1))
    }

    /// `date`'s day in UTC, `YYYY-MM-DD`.
    public static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
