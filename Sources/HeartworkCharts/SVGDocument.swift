/// An SVG image assembled as text. Every string that comes from data goes through `escape`.
public struct SVGDocument: Sendable {
    public let width: Double
    public let height: Double
    private let title: String
    /// Prefixes every id in the document, so several charts on one page keep distinct titles
    /// (their accessible names) and clip paths.
    private let id: String
    private var elements: [String] = []
    private var identifierCount = 0

    public init(width: Double, height: Double, title: String, id: String = "chart") {
        self.width = width
        self.height = height
        self.title = title
        self.id = String(id.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" })
    }

    public mutating func add(_ element: String) { elements.append(element) }

    /// A document-unique id for clip paths and gradients.
    public mutating func uniqueIdentifier(_ prefix: String) -> String {
        identifierCount += 1
        return "\(id)-\(prefix)-\(identifierCount)"
    }

    /// Starts a group whose drawing is clipped to `frame`; close it with `endGroup()`.
    public mutating func beginClippedGroup(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        let id = uniqueIdentifier("clip")
        add("<clipPath id=\"\(id)\"><rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\"/></clipPath>")
        add("<g clip-path=\"url(#\(id))\">")
    }

    public mutating func endGroup() { add("</g>") }

    /// The complete document, accessible: role="img" with the title as its name.
    public var rendered: String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(number(width)) \(number(height))" \
        role="img" aria-labelledby="\(id)-title" \
        font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="12">
        <title id="\(id)-title">\(SVGDocument.escape(title))</title>
        <rect width="100%" height="100%" fill="#ffffff"/>
        \(elements.joined(separator: "\n"))
        </svg>
        """
    }

    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    // MARK: Shapes

    /// Text; with `halo`, a white outline keeps it readable over lines and bars.
    public mutating func text(
        _ content: String, x: Double, y: Double, size: Double = 12, weight: String = "normal",
        anchor: String = "start", fill: String = Palette.text, rotate: Double? = nil, halo: Bool = false
    ) {
        let transform = rotate.map { " transform=\"rotate(\(number($0)) \(number(x)) \(number(y)))\"" } ?? ""
        let outline = halo ? " stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"" : ""
        add(
            "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(number(size))\" font-weight=\"\(weight)\" text-anchor=\"\(anchor)\" fill=\"\(fill)\"\(outline)\(transform)>\(SVGDocument.escape(content))</text>"
        )
    }

    /// An external image (a map tile); decorative, hidden from assistive technology.
    public mutating func image(href: String, x: Double, y: Double, width: Double, height: Double) {
        add("<image href=\"\(SVGDocument.escape(href))\" x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\" aria-hidden=\"true\"/>")
    }

    public mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, opacity: Double = 1, stroke: String? = nil, radius: Double = 0) {
        let strokeAttribute = stroke.map { " stroke=\"\($0)\"" } ?? ""
        add(
            "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(max(0, width)))\" height=\"\(number(max(0, height)))\" rx=\"\(number(radius))\" fill=\"\(fill)\" fill-opacity=\"\(number(opacity))\"\(strokeAttribute)/>"
        )
    }

    public mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dash: String? = nil) {
        let dashAttribute = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        add("<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(number(width))\"\(dashAttribute)/>")
    }

    public mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double = 1.5, fill: String = "none") {
        guard !points.isEmpty else { return }
        let coordinates = points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
        add("<polyline points=\"\(coordinates)\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(number(width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>")
    }

    public mutating func polygon(_ points: [(x: Double, y: Double)], fill: String, opacity: Double = 1) {
        guard !points.isEmpty else { return }
        let coordinates = points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
        add("<polygon points=\"\(coordinates)\" fill=\"\(fill)\" fill-opacity=\"\(number(opacity))\" stroke=\"none\"/>")
    }

    public mutating func circle(cx: Double, cy: Double, r: Double, fill: String, opacity: Double = 1, stroke: String? = nil) {
        let strokeAttribute = stroke.map { " stroke=\"\($0)\" stroke-width=\"1.5\"" } ?? ""
        add("<circle cx=\"\(number(cx))\" cy=\"\(number(cy))\" r=\"\(number(r))\" fill=\"\(fill)\" fill-opacity=\"\(number(opacity))\"\(strokeAttribute)/>")
    }

    public mutating func ellipse(cx: Double, cy: Double, rx: Double, ry: Double, rotation: Double, stroke: String, width: Double = 2) {
        add(
            "<ellipse cx=\"\(number(cx))\" cy=\"\(number(cy))\" rx=\"\(number(rx))\" ry=\"\(number(ry))\" transform=\"rotate(\(number(rotation)) \(number(cx)) \(number(cy)))\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(number(width))\"/>"
        )
    }
}

/// Coordinates with at most two decimals: small files, no visible loss.
func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 100).rounded() / 100
    if rounded == rounded.rounded() { return String(Int64(rounded)) }
    return String(rounded)
}
