/// A small line or bar chart as inline SVG, for the HTML report: no scripts, no styles from elsewhere. It scales to
/// the page's width (a `viewBox`), its value axis is ticked in round steps, or by decades on a logarithmic scale.
struct SVGChart {
    struct Series {
        var name: String
        var color: String
        var values: [Double]
    }

    var title: String
    var unit: String
    var labels: [String]
    var series: [Series]
    var isBars = false
    /// A logarithmic value axis (latencies whose maximum would squash the rest on a linear one).
    var isLogarithmic = false
    /// Print each bar's value above it.
    var printsValues = false

    private static let width = 640.0
    private static let height = 220.0
    private static let margin = (left: 56.0, right: 12.0, top: 28.0, bottom: 28.0)

    /// The value axis the chart's values need.
    var axis: AxisScale {
        let values = self.series.flatMap(\.values)
        return self.isLogarithmic
            ? AxisScale.logarithmic(values: values) : AxisScale.linear(maximum: values.max() ?? 0)
    }

    var svg: String {
        let plotWidth = Self.width - Self.margin.left - Self.margin.right
        let plotHeight = Self.height - Self.margin.top - Self.margin.bottom
        let axis = self.axis
        let count = max(1, self.labels.count)
        let step = plotWidth / Double(count)
        func x(_ index: Int) -> Double { Self.margin.left + step * (Double(index) + 0.5) }
        func y(_ value: Double) -> Double { Self.margin.top + plotHeight * (1 - axis.fraction(value)) }
        let bottom = Self.margin.top + plotHeight
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" "
                + "class=\"chart\" font-family=\"sans-serif\" font-size=\"11\">",
            "<text x=\"\(Self.margin.left)\" y=\"16\" font-size=\"13\">\(HTMLText.escape(self.title))"
                + (self.isLogarithmic ? " (log scale)" : "") + "</text>",
        ]
        for value in axis.ticks {
            parts.append(
                "<line x1=\"\(Self.margin.left)\" x2=\"\(Self.width - Self.margin.right)\" y1=\"\(y(value))\" "
                    + "y2=\"\(y(value))\" stroke=\"#ddd\"/><text x=\"\(Self.margin.left - 4)\" y=\"\(y(value) + 4)\" "
                    + "text-anchor=\"end\">\(axis.label(value))</text>")
        }
        let every = max(1, count / 10)
        for (index, label) in self.labels.enumerated() where index % every == 0 {
            parts.append(
                "<text x=\"\(x(index))\" y=\"\(Self.height - 10)\" text-anchor=\"middle\">\(HTMLText.escape(label))</text>"
            )
        }
        for (number, series) in self.series.enumerated() {
            if self.isBars {
                let barWidth = step * 0.8 / Double(self.series.count)
                for (index, value) in series.values.enumerated() {
                    let left = x(index) - step * 0.4 + barWidth * Double(number)
                    let text = StarReport.format(value)
                    parts.append(
                        "<rect x=\"\(left)\" y=\"\(y(value))\" width=\"\(barWidth)\" height=\"\(bottom - y(value))\" "
                            + "fill=\"\(series.color)\"><title>\(text) \(self.unit)</title></rect>")
                    if self.printsValues {
                        parts.append(
                            "<text x=\"\(left + barWidth / 2)\" y=\"\(max(Self.margin.top + 10, y(value) - 4))\" "
                                + "text-anchor=\"middle\">\(text)</text>")
                    }
                }
            } else {
                let points = series.values.enumerated().map { "\(x($0.offset)),\(y($0.element))" }
                parts.append(
                    "<polyline fill=\"none\" stroke=\"\(series.color)\" stroke-width=\"2\" "
                        + "points=\"\(points.joined(separator: " "))\"/>")
            }
            parts.append(
                "<text x=\"\(Self.width - Self.margin.right - 90 * Double(self.series.count - number))\" y=\"16\" "
                    + "fill=\"\(series.color)\">■ \(HTMLText.escape(series.name))</text>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}

/// Text made safe to put in HTML.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
