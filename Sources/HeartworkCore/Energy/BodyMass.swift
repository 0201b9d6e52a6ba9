/// Mass conversions at the edges; everything inside Heartwork is in kilograms.
public enum BodyMass {
    /// International avoirdupois pound (1959 agreement).
    public static let kilogramsPerPound = 0.453_592_37

    public static func kilograms(fromPounds pounds: Double) -> Double { pounds * kilogramsPerPound }
    public static func pounds(fromKilograms kilograms: Double) -> Double { kilograms / kilogramsPerPound }

    /// Accepted body mass range; outside it the input is a typing mistake.
    public static let plausibleKilograms: ClosedRange<Double> = 20...350
}
