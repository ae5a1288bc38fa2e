import Foundation
import LiveryResolve

/// A spring token's motion (`com.livery.spring`, parsed as `SpringConfig`) described the way
/// people reason about it: how much it overshoots and when it comes to rest.
extension SpringConfig {
    /// Undamped angular frequency ω₀ = √(k/m), in radians per second.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// ζ = c / (2√(km)): below 1 the spring overshoots, at 1 it is critically damped, above 1 it creeps.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The peak overshoot past the target as a fraction (0 when ζ ≥ 1).
    public var overshoot: Double {
        let zeta = dampingRatio
        guard zeta < 1 else { return 0 }
        return exp(-zeta * .pi / (1 - zeta * zeta).squareRoot())
    }

    /// Seconds until the motion stays within 2 % of the distance travelled (released from rest).
    /// The envelope of the slowest mode decays as e^(−σt), so it settles at ln(50)/σ; critically
    /// damped motion also carries a (1 + ω₀t) factor, solved here by iteration.
    public var settleTime: Double {
        let zeta = dampingRatio, omega = naturalFrequency
        guard omega > 0 else { return .infinity }
        let threshold = 0.02
        if zeta < 1 { return log(1 / threshold) / (zeta * omega) }
        if zeta == 1 {
            // (1 + ω₀t)e^(−ω₀t) = 0.02, by Newton's method from a start past the answer.
            var x = 8.0
            for _ in 0..<50 { x -= ((1 + x) * exp(-x) - threshold) / (-x * exp(-x)) }
            return x / omega
        }
        let slowPole = omega * (zeta - (zeta * zeta - 1).squareRoot())
        return log(1 / threshold) / slowPole
    }

    /// How the motion feels, by its damping ratio: what `summary` says (and the brand sheet in the page's language).
    public enum Feel: Sendable {
        case bouncy, lively, smooth, criticallyDamped, overdamped
    }

    public var feel: Feel {
        let zeta = dampingRatio
        if zeta < 1 { return zeta < 0.4 ? .bouncy : zeta < 0.8 ? .lively : .smooth }
        return zeta == 1 ? .criticallyDamped : .overdamped
    }

    /// The overshoot as people read it: "12 %", "0.4 %".
    public var overshootText: String {
        let percent = overshoot * 100
        return percent < 1 ? String(format: "%.1f %%", percent) : String(format: "%.0f %%", percent)
    }

    /// "0.51 s".
    public var settleText: String { String(format: "%.2f s", settleTime) }

    /// "Bouncy: overshoots 12 % and settles in about 0.51 s" — for the generated files' comments.
    public var summary: String {
        switch feel {
        case .bouncy, .lively, .smooth:
            let name = feel == .bouncy ? "Bouncy" : feel == .lively ? "Lively" : "Smooth"
            return "\(name): overshoots \(overshootText) and settles in about \(settleText)"
        case .criticallyDamped: return "Critically damped: no overshoot, settles in about \(settleText)"
        case .overdamped: return "Overdamped: no overshoot, creeps to rest in about \(settleText)"
        }
    }
}

extension SpringConfig {
    /// Where the spring is at `time` seconds, released from rest at 0 towards 1 (the step response).
    public func position(at time: Double) -> Double {
        let zeta = dampingRatio, omega = naturalFrequency
        if zeta < 1 {
            let damped = omega * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-zeta * omega * time) * (cos(damped * time) + zeta * omega / damped * sin(damped * time))
        }
        if zeta == 1 { return 1 - exp(-omega * time) * (1 + omega * time) }
        let root = (zeta * zeta - 1).squareRoot()
        let fast = -omega * (zeta + root), slow = -omega * (zeta - root)
        return 1 - (fast * exp(slow * time) - slow * exp(fast * time)) / (fast - slow)
    }

    /// An SVG polyline's points drawing the motion over its settle time (plus a fifth) in a
    /// `width` × `height` box, scaled so the highest overshoot still fits, and the target's y.
    public func curve(width: Double, height: Double, samples: Int = 60) -> (points: String, targetY: Double) {
        let span = (settleTime.isFinite ? settleTime : 2) * 1.2
        let positions = (0...samples).map { position(at: span * Double($0) / Double(samples)) }
        let scale = height * min(0.8, 0.95 / max(positions.max() ?? 1, 1))
        let points = positions.enumerated().map { index, value in
            PlatformValues.decimal(width * Double(index) / Double(samples), places: 1) + "," + PlatformValues.decimal(height - value * scale, places: 1)
        }
        return (points.joined(separator: " "), ((height - scale) * 10).rounded() / 10)
    }
}
