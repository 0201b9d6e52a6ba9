/// Colours shared by every chart, chosen for contrast on white and for colour-blind
/// readers (Okabe–Ito hues for categories).
public enum Palette {
    public static let text = "#1f2933"
    public static let mutedText = "#52606d"
    public static let grid = "#e4e7eb"
    public static let axis = "#9aa5b1"
    public static let primary = "#0b6bcb"
    public static let accent = "#d55e00"
    /// Warnings as text: the accent darkened to 6.5:1 on white (the accent itself is 3.9:1,
    /// fine for lines and marks, too light for words).
    public static let warningText = "#a33d00"
    public static let vlf = "#cbd2d9"
    public static let lf = "#56b4e9"
    public static let hf = "#e69f00"

    /// HeartMate zones none … red line.
    public static let reserveZones = ["#9aa5b1", "#009e73", "#56b4e9", "#e69f00", "#d55e00"]
}
