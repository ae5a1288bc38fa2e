/// Livery's version, shown by the CLI, written into reports, and part of every build record.
public enum LiveryVersion {
    public static let current = "0.1.0"
}
