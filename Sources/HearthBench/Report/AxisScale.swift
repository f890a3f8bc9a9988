import Foundation

/// A chart's value axis: where a value goes (0 at the bottom, 1 at the top) and which ticks to draw.
///
/// Linear axes start at 0 and take ticks in 1-2-5 steps (0, 2,000, 4,000 rather than 2358.8, 4717.5); logarithmic
/// ones span whole decades around the values, ticked at each, so one slow maximum does not squash the rest.
struct AxisScale: Equatable {
    enum Kind: Equatable {
        case linear
        case logarithmic
    }

    let kind: Kind
    /// The bottom and the top of the axis.
    let lower: Double
    let upper: Double
    /// The values ticked, from the bottom up.
    let ticks: [Double]
    /// Decimals a linear axis's tick labels need (one tick step's worth).
    let decimals: Int

    /// A linear axis from 0 to the first 1-2-5 step at or above `maximum`, with about `count` steps.
    static func linear(maximum: Double, count: Int = 4) -> AxisScale {
        let top = maximum.isFinite && maximum > 0 ? maximum : 1
        let step = Self.niceStep(top / Double(max(1, count)))
        let steps = Int((top / step).rounded(.up))
        let ticks = (0...max(1, steps)).map { Double($0) * step }
        let decimals = max(0, Int(-log10(step).rounded(.down)))
        return AxisScale(kind: .linear, lower: 0, upper: ticks.last ?? step, ticks: ticks, decimals: decimals)
    }

    /// A logarithmic axis over the whole decades holding every positive value (at least one decade).
    static func logarithmic(values: [Double]) -> AxisScale {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        let low = (log10(positive.min() ?? 1)).rounded(.down)
        let high = max(low + 1, (log10(positive.max() ?? 10)).rounded(.up))
        let ticks = stride(from: low, through: high, by: 1).map { pow(10, $0) }
        return AxisScale(kind: .logarithmic, lower: pow(10, low), upper: pow(10, high), ticks: ticks, decimals: 0)
    }

    /// The step of 1, 2 or 5 times a power of ten nearest `raw` (2,358.8 takes 2,000; 4,000 takes 5,000).
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, log10(raw).rounded(.down))
        let residual = raw / magnitude
        let multiple: Double = residual < 1.5 ? 1 : residual < 3 ? 2 : residual < 7 ? 5 : 10
        return multiple * magnitude
    }

    /// Where `value` lies on the axis: 0 at the bottom, 1 at the top (clamped; a value at or below zero on a
    /// logarithmic axis sits at the bottom).
    func fraction(_ value: Double) -> Double {
        let position: Double
        switch self.kind {
        case .linear:
            position = self.upper > self.lower ? (value - self.lower) / (self.upper - self.lower) : 0
        case .logarithmic:
            guard value > 0 else { return 0 }
            position = (log10(value) - log10(self.lower)) / (log10(self.upper) - log10(self.lower))
        }
        return position.isFinite ? min(1, max(0, position)) : 0
    }

    /// A tick's label: thousands separated by commas, as many decimals as the step (on a logarithmic axis, the
    /// decade) needs.
    func label(_ value: Double) -> String {
        switch self.kind {
        case .linear: Self.grouped(value, decimals: self.decimals)
        case .logarithmic: Self.grouped(value, decimals: value > 0 ? max(0, Int(-log10(value).rounded())) : 0)
        }
    }

    /// `value` with `decimals` decimals and its thousands separated by commas (`12,500`, `0.05`).
    static func grouped(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", value)
        let parts = text.split(separator: ".", maxSplits: 1)
        guard let whole = parts.first else { return text }
        let sign = whole.hasPrefix("-") ? "-" : ""
        let digits = Array(whole.drop { $0 == "-" })
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return sign + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }
}
