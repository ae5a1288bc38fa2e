// A stand-in for the few parts of Apple's SwiftUI that generated Theme.swift files use, declared
// with the signatures of Apple's SDK, so `swiftc -typecheck` can check generated code on Linux
// (where SwiftUI does not exist). Keep it minimal: anything declared here and not in SwiftUI
// would let a wrong generated file pass.
@_exported import Foundation

public struct Color: Hashable, Sendable {
    public enum RGBColorSpace: Hashable, Sendable { case sRGB, sRGBLinear, displayP3 }
    public init(_ colorSpace: RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {}
}

public struct Font: Hashable, Sendable {
    public struct Weight: Hashable, Sendable {
        let value: Double
        public static let ultraLight = Weight(value: -0.8), thin = Weight(value: -0.6), light = Weight(value: -0.4)
        public static let regular = Weight(value: 0), medium = Weight(value: 0.23), semibold = Weight(value: 0.3)
        public static let bold = Weight(value: 0.4), heavy = Weight(value: 0.56), black = Weight(value: 0.62)
    }
    public enum Design: Hashable, Sendable { case `default`, serif, rounded, monospaced }
    public enum TextStyle: CaseIterable, Hashable, Sendable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
    }
    public static func system(size: CGFloat, weight: Font.Weight? = nil, design: Font.Design? = nil) -> Font { Font() }
    public static func custom(_ name: String, size: CGFloat) -> Font { Font() }
    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: Font.TextStyle) -> Font { Font() }
    public static func custom(_ name: String, fixedSize: CGFloat) -> Font { Font() }
    public func weight(_ weight: Font.Weight) -> Font { self }
}

// Views and modifiers, as the SDK declares them (main-actor isolated; bodies built by `ViewBuilder`).
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("a stub") }
}

@resultBuilder public struct ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public typealias Body = Never
    public var body: Never { fatalError("a stub") }
}

public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier
    public init(content: Content, modifier: Modifier) { (self.content, self.modifier) = (content, modifier) }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public typealias Body = Never
    public var body: Never { fatalError("a stub") }
}

extension View {
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent(content: self, modifier: modifier) }
    public func font(_ font: Font?) -> some View { self }
}

public protocol DynamicProperty {}

@propertyWrapper public struct ScaledMetric<Value>: DynamicProperty where Value: BinaryFloatingPoint {
    private let value: Value
    public init(wrappedValue: Value, relativeTo textStyle: Font.TextStyle) { value = wrappedValue }
    public var wrappedValue: Value { value }
}

public struct Animation: Equatable, Sendable {
    public static func interpolatingSpring(mass: Double = 1.0, stiffness: Double, damping: Double, initialVelocity: Double = 0.0) -> Animation { Animation() }
}

public struct Gradient: Equatable {
    public struct Stop: Equatable {
        public var color: Color
        public var location: CGFloat
        public init(color: Color, location: CGFloat) { (self.color, self.location) = (color, location) }
    }
    public var stops: [Gradient.Stop]
    public init(stops: [Gradient.Stop]) { self.stops = stops }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public struct SensoryFeedback: Equatable, Sendable {
    public struct Weight: Equatable, Sendable {
        let value: Int
        public static let light = Weight(value: 0), medium = Weight(value: 1), heavy = Weight(value: 2)
    }
    public struct Flexibility: Equatable, Sendable {
        let value: Int
        public static let rigid = Flexibility(value: 0), solid = Flexibility(value: 1), soft = Flexibility(value: 2)
    }
    let value: Int
    public static let success = SensoryFeedback(value: 0), warning = SensoryFeedback(value: 1), error = SensoryFeedback(value: 2)
    public static let selection = SensoryFeedback(value: 3)
    public static func impact(weight: SensoryFeedback.Weight = .medium, intensity: Double = 1.0) -> SensoryFeedback { SensoryFeedback(value: 4) }
    public static func impact(flexibility: SensoryFeedback.Flexibility, intensity: Double = 1.0) -> SensoryFeedback { SensoryFeedback(value: 5) }
}
